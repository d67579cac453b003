// Bitwise operators between a signed and an unsigned operand are a CompileError that names both
// operands and their types, as in Halide 21 (which of the two meanings was meant can't be told).
#include <loom/loom.h>

#include <gtest/gtest.h>

using namespace loom;

TEST(BitwiseSignedness, MixedSignednessIsAnError) {
    Var x("x");
    Expr u8 = cast<uint8_t>(x), i16 = cast<int16_t>(x);
    for (auto op : {+[](Expr a, Expr b) { return a & b; }, +[](Expr a, Expr b) { return a | b; },
                    +[](Expr a, Expr b) { return a ^ b; }}) {
        try {
            op(u8, i16);
            FAIL() << "mixing uint8 and int16 should be a CompileError";
        } catch (const CompileError &e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("both be signed or both be unsigned"), std::string::npos) << msg;
            EXPECT_NE(msg.find("uint8"), std::string::npos) << msg;
            EXPECT_NE(msg.find("int16"), std::string::npos) << msg;
        }
    }
    // Same signedness, or an int literal, is fine.
    EXPECT_EQ((u8 & cast<uint16_t>(x)).type(), UInt(16));
    EXPECT_EQ((i16 & 3).type(), Int(16));
}
