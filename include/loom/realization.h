#ifndef LOOM_REALIZATION_H
#define LOOM_REALIZATION_H

/// \file Realization (the Buffers a pipeline produced) and RealizationArg (where a pipeline
/// should write its outputs), as in Halide.

#include <loom/buffer.h>
#include <loom/error.h>
#include <loom/runtime/loom_runtime.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {

/// The result of realizing a pipeline: one Buffer per output (a Tuple-valued Func gives one per
/// element; a multi-output Pipeline one per element of each output, in order).
class Realization {
public:
    /// From a list of Buffers (one per output, at least one).
    Realization(const std::vector<Buffer<void>> &buffers) : images(buffers) { check_nonempty(); }
    Realization(std::vector<Buffer<void>> &&buffers) : images(std::move(buffers)) {
        check_nonempty();
    }
    /// From one or more Buffers (the outputs of a realize into existing storage).
    template <typename T, int Dims, typename... Args>
    Realization(Buffer<T, Dims> &first, Args &&...rest) {
        images.push_back(Buffer<void>(first));
        add(std::forward<Args>(rest)...);
    }

    /// Number of Buffers.
    size_t size() const { return images.size(); }
    /// The i-th Buffer.
    const Buffer<void> &operator[](size_t i) const {
        check_index(i);
        return images[i];
    }
    Buffer<void> &operator[](size_t i) {
        check_index(i);
        return images[i];
    }

    /// A single-output Realization converts to a typed Buffer. Converting a Realization of
    /// several Buffers, or to the wrong element type, is a CompileError.
    template <typename T, int Dims>
    operator Buffer<T, Dims>() const {
        if (images.size() != 1) {
            throw CompileError("Can only convert a Realization with one Buffer to a Buffer; this "
                               "one has " +
                               std::to_string(images.size()) + " (use operator[] to pick one)");
        }
        if constexpr (!std::is_void<T>::value) {
            if (images[0].defined() && Type(images[0].type()) != type_of<T>()) {
                throw CompileError("Can't convert a Realization of type " +
                                   type_to_string(images[0].type()) + " to a Buffer of type " +
                                   type_to_string(type_of<T>()));
            }
        }
        return Buffer<T, Dims>(images[0]);
    }

    std::vector<Buffer<void>>::iterator begin() { return images.begin(); }
    std::vector<Buffer<void>>::iterator end() { return images.end(); }
    std::vector<Buffer<void>>::const_iterator begin() const { return images.begin(); }
    std::vector<Buffer<void>>::const_iterator end() const { return images.end(); }
    /// The Buffers, in output order.
    const std::vector<Buffer<void>> &buffers() const { return images; }

private:
    void add() {}
    template <typename T, int Dims, typename... Args>
    void add(Buffer<T, Dims> &b, Args &&...rest) {
        images.push_back(Buffer<void>(b));
        add(std::forward<Args>(rest)...);
    }
    void check_nonempty() const {
        if (images.empty()) throw CompileError("A Realization needs at least one Buffer");
    }
    void check_index(size_t i) const {
        if (i >= images.size()) {
            throw CompileError("Realization index " + std::to_string(i) + " out of range (size " +
                               std::to_string(images.size()) + ")");
        }
    }
    std::vector<Buffer<void>> images;
};

/// Where realize() writes: one or more existing buffers, given as a Buffer, a Runtime::Buffer,
/// a raw halide_buffer_t*, a Realization, a std::vector of Buffers, or several Buffers.
struct RealizationArg {
    halide_buffer_t *buf = nullptr;                         ///< single raw buffer, or null
    Realization *r = nullptr;                               ///< a Realization, or null
    std::unique_ptr<std::vector<Buffer<void>>> buffer_list; ///< several Buffers, or null

    RealizationArg(halide_buffer_t *b) : buf(b) {}
    template <typename T, int Dims>
    RealizationArg(Runtime::Buffer<T, Dims> &dst) : buf(dst.raw_buffer()) {}
    template <typename T, int Dims>
    RealizationArg(Buffer<T, Dims> &dst) : buffer_list(new std::vector<Buffer<void>>()) {
        // Kept as a Buffer (not only its raw pointer) so an undefined Buffer can be reported
        // by name and infer_input_bounds can work with it.
        buffer_list->push_back(Buffer<void>(dst));
    }
    RealizationArg(Realization &realization) : r(&realization) {}
    RealizationArg(std::vector<Buffer<void>> &dst)
        : buffer_list(new std::vector<Buffer<void>>(dst)) {}
    template <typename T, int Dims, typename... Args,
              typename = typename std::enable_if<(sizeof...(Args) > 0)>::type>
    RealizationArg(Buffer<T, Dims> &first, Args &&...rest)
        : buffer_list(new std::vector<Buffer<void>>()) {
        buffer_list->push_back(Buffer<void>(first));
        add(std::forward<Args>(rest)...);
    }
    RealizationArg(RealizationArg &&) = default;

    /// Number of output buffers.
    size_t size() const {
        if (r) return r->size();
        if (buffer_list) return buffer_list->size();
        return 1;
    }
    /// The raw output buffers in order (null entries for undefined Buffers).
    std::vector<halide_buffer_t *> raw_buffers() const {
        std::vector<halide_buffer_t *> out;
        if (r) {
            for (size_t i = 0; i < r->size(); i++) {
                out.push_back((*r)[i].defined() ? raw((*r)[i]) : nullptr);
            }
        } else if (buffer_list) {
            for (const auto &b : *buffer_list) out.push_back(b.defined() ? raw(b) : nullptr);
        } else {
            out.push_back(buf);
        }
        return out;
    }

private:
    static halide_buffer_t *raw(const Buffer<void> &b) {
        return const_cast<halide_buffer_t *>(b.raw_buffer());
    }
    void add() {}
    template <typename T, int Dims, typename... Args>
    void add(Buffer<T, Dims> &b, Args &&...rest) {
        buffer_list->push_back(Buffer<void>(b));
        add(std::forward<Args>(rest)...);
    }
};

} // namespace loom

#endif
