// LOOM_CHECK_DIRTY=1 (a compile-time switch for debug builds, defined for this test only): reading
// or writing the host memory of a Buffer whose newest data is on the device is an error instead
// of stale data, through every element accessor; after copy_to_host the same accesses work.
#define LOOM_CHECK_DIRTY 1
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <stdexcept>

using namespace loom;

TEST(CheckDirty, HostAccessToDeviceDirtyBufferIsAnError) {
    Buffer<int> b(4, 3);
    b.fill(7);
    EXPECT_EQ(b(1, 2), 7);
    b.set_device_dirty();
    const Buffer<int> &cb = b;
    EXPECT_THROW(cb(1, 2), std::runtime_error);
    int pos[2] = {0, 0};
    EXPECT_THROW(cb(pos), std::runtime_error);
    // With no device allocation there is nothing to copy back: the flag alone was stale.
    b.set_device_dirty(false);
    EXPECT_EQ(cb(3, 2), 7);
}
