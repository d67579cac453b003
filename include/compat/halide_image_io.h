#ifndef LOOM_COMPAT_HALIDE_IMAGE_IO_H
#define LOOM_COMPAT_HALIDE_IMAGE_IO_H

/// \file Image file I/O with the API of Halide 21's tools/halide_image_io.h, in Halide::Tools:
/// load_image, load_and_convert_image, save_image, convert_and_save_image, the lower-level load /
/// save / save_query, and ImageTypeConversion::convert_image (also available as the free function
/// convert_image). Works with loom::Buffer (Halide::Buffer) and loom::Runtime::Buffer
/// (Halide::Runtime::Buffer), so AOT programs use it without libloom.
///
/// Formats, by file extension: PNG (libpng; 8/16-bit gray, gray+alpha, RGB, RGBA), JPEG (libjpeg;
/// 8-bit gray and RGB, saved at quality 99 as Halide does) and binary PGM/PPM (P5/P6, 8/16 bit).
/// Images are planar: (x, y) for one channel, (x, y, c) otherwise. Define HALIDE_NO_PNG or
/// HALIDE_NO_JPEG to build without a library. Link libpng and libjpeg (CMake: PNG::PNG,
/// JPEG::JPEG).
///
/// Errors: every function takes Halide's `check` policy (a bool(*)(bool, const char *)
/// template argument). Halide's default CheckFail aborts; Loom's prints the message to stderr and
/// throws loom::RuntimeError (header-only, and a std::runtime_error, so programs without libloom
/// can catch it too). CheckReturn makes the functions return false instead. Messages name the
/// file and the reason: a missing file, an unknown extension, a truncated or corrupt PNG/JPEG/PNM
/// (libpng and libjpeg errors are caught with setjmp/longjmp; they never abort), or a buffer whose
/// type or shape the format cannot hold.
///
/// Differences from Halide 21, all on paths where Halide crashes or misbehaves: a truncated JPEG
/// is an error (libjpeg's premature-end and corrupt-data warnings are fatal here, where Halide
/// returns a gray-padded image) and a malformed one is reported (Halide's libjpeg exits the
/// program); PNG palettes and 1/2/4-bit gray are expanded to 8 bits; PGM/PPM accept any maxval up
/// to 65535 and either magic number; signed integer samples convert as the unsigned type of the
/// same width (Halide routes int32 through uint64, which zeroes them); save functions take const
/// references (Halide's convert_and_save_image does not compile for a Halide::Buffer).

#include "image_io_codecs.h"

#include <loom/error.h>
#include <loom/runtime/loom_buffer.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>

namespace Halide {
namespace Tools {

namespace Internal {

// ---- Sample conversion (Halide's rules) ----

/// Converts one sample, reading integers as fixed-point numbers in [0, 1] (uint8 255 and uint16
/// 65535 are 1.0): widening an integer replicates its bits (0xAB -> 0xABAB), narrowing rounds
/// (uint16 -> uint8 divides by 257) or shifts, floats scale by the integer maximum and round.
/// Signed integers are read and written as the unsigned type of the same width; bool is 0 or 1.
template <typename To, typename From>
To convert(const From &in) {
    static_assert(std::is_arithmetic<To>::value && std::is_arithmetic<From>::value,
                  "convert works on scalar samples");
    if constexpr (std::is_same<To, bool>::value) {
        return in != 0;
    } else if constexpr (std::is_same<From, bool>::value) {
        return (To)in;
    } else if constexpr (std::is_integral<From>::value && std::is_signed<From>::value) {
        return convert<To>((std::make_unsigned_t<From>)in);
    } else if constexpr (std::is_integral<To>::value && std::is_signed<To>::value) {
        return (To)convert<std::make_unsigned_t<To>>(in);
    } else if constexpr (std::is_floating_point<To>::value && std::is_floating_point<From>::value) {
        return (To)in;
    } else if constexpr (std::is_floating_point<From>::value) {
        // Float to unsigned: scale by the maximum, round to nearest (out-of-range values wrap).
        if constexpr (sizeof(To) == 1) {
            return (To)std::lround(in * (From)255);
        } else if constexpr (sizeof(To) == 2) {
            return (To)std::lround(in * (From)65535);
        } else if constexpr (sizeof(To) == 4) {
            return (To)std::llround(in * 4294967295.0);
        } else {
            return convert<uint64_t>((uint32_t)std::llround(in * 4294967295.0));
        }
    } else if constexpr (std::is_floating_point<To>::value) {
        // Unsigned to float: divide by the maximum (in float for 8 and 16 bits, as Halide does).
        if constexpr (sizeof(From) == 1) {
            return (To)(in / 255.0f);
        } else if constexpr (sizeof(From) == 2) {
            return (To)(in / 65535.0f);
        } else if constexpr (sizeof(From) == 4) {
            return (To)(in / 4294967295.0);
        } else {
            return convert<To>((uint32_t)(in >> 32));
        }
    } else if constexpr (sizeof(To) >= sizeof(From)) {
        // Widening: replicate the bits (x * 0x0101 for uint8 -> uint16, ...).
        constexpr To factor = std::numeric_limits<To>::max() / std::numeric_limits<From>::max();
        return (To)((To)in * factor);
    } else if constexpr (sizeof(To) == 1 && sizeof(From) == 2) {
        uint32_t t = (uint32_t)in + 0x80; // rounding division by 257
        return (To)((t * 255 + 255) >> 16);
    } else if constexpr (sizeof(To) == 1 && sizeof(From) == 4) {
        return (To)(((uint64_t)in + 0x00808080) / 0x01010101);
    } else if constexpr (sizeof(To) == 1 && sizeof(From) == 8) {
        return convert<To>((uint32_t)(in >> 32));
    } else {
        return (To)(in >> (8 * (sizeof(From) - sizeof(To)))); // keep the high bits
    }
}

// ---- Buffer plumbing ----

/// Whether ImageType is a loom::Buffer or a loom::Runtime::Buffer, and its T and Dims.
template <typename ImageType>
struct ImageTraits : std::false_type {};
template <typename T, int D>
struct ImageTraits<Runtime::Buffer<T, D>> : std::true_type {
    using Elem = T;
    static constexpr int dims = D;
    template <typename T2>
    using Rebind = Runtime::Buffer<T2, AnyDims>;
};
template <typename T, int D>
struct ImageTraits<loom::Buffer<T, D>> : std::true_type {
    using Elem = T;
    static constexpr int dims = D;
    template <typename T2>
    using Rebind = loom::Buffer<T2, AnyDims>;
};

/// A Runtime::Buffer view of an image (sharing its memory).
template <typename T, int D>
Runtime::Buffer<const void> runtime_view(const Runtime::Buffer<T, D> &im) {
    return im.template as<const void, AnyDims>();
}
template <typename T, int D>
Runtime::Buffer<const void> runtime_view(const loom::Buffer<T, D> &im) {
    if (!im.defined()) return Runtime::Buffer<const void>();
    return Runtime::Buffer<T, D>(im).template as<const void, AnyDims>();
}

template <typename T>
struct TypeTag {
    using type = T;
};

/// Calls fn(TypeTag<T>()) for the C++ scalar type of t; false when t has none.
template <typename Fn>
bool dispatch_type(halide_type_t t, Fn &&fn) {
    if (t.lanes != 1) return false;
    switch (t.code) {
    case halide_type_uint:
        if (t.bits == 1) return fn(TypeTag<bool>()), true;
        if (t.bits == 8) return fn(TypeTag<uint8_t>()), true;
        if (t.bits == 16) return fn(TypeTag<uint16_t>()), true;
        if (t.bits == 32) return fn(TypeTag<uint32_t>()), true;
        if (t.bits == 64) return fn(TypeTag<uint64_t>()), true;
        return false;
    case halide_type_int:
        if (t.bits == 8) return fn(TypeTag<int8_t>()), true;
        if (t.bits == 16) return fn(TypeTag<int16_t>()), true;
        if (t.bits == 32) return fn(TypeTag<int32_t>()), true;
        if (t.bits == 64) return fn(TypeTag<int64_t>()), true;
        return false;
    case halide_type_float:
        if (t.bits == 32) return fn(TypeTag<float>()), true;
        if (t.bits == 64) return fn(TypeTag<double>()), true;
        return false;
    default:
        return false;
    }
}

/// A new dense buffer with src's shape, every sample converted to dst_type.
inline Runtime::Buffer<void> convert_buffer(const Runtime::Buffer<const void> &src,
                                            halide_type_t dst_type) {
    Runtime::Buffer<void> result;
    bool dst_ok = false;
    bool src_ok = dispatch_type(src.type(), [&](auto src_tag) {
        using S = typename decltype(src_tag)::type;
        Runtime::Buffer<const S> typed_src = src.template as<const S, AnyDims>();
        dst_ok = dispatch_type(dst_type, [&](auto dst_tag) {
            using D = typename decltype(dst_tag)::type;
            auto dst = Runtime::Buffer<D>::make_with_shape_of(typed_src);
            if (dst.number_of_elements() > 0 && typed_src.data()) {
                dst.for_each_value([](D &d, const S &s) { d = convert<D>(s); }, typed_src);
            }
            result = dst;
        });
    });
    if (!src_ok || !dst_ok) {
        throw loom::RuntimeError("convert_image: cannot convert between " + type_name(src.type()) +
                                 " and " + type_name(dst_type));
    }
    return result;
}

/// Halide's choice of the format entry closest to the image (fewest lost dimensions and bits).
inline FormatInfo best_save_format(halide_type_t type, int dims, const std::set<FormatInfo> &info) {
    int best_score = 0x7fffffff;
    FormatInfo best{};
    for (const FormatInfo &f : info) {
        int score = std::max(0, dims - f.dimensions) * 1024 +
                    std::max(0, (int)type.bits - (int)f.type.bits) * 8 +
                    std::max(0, (int)f.type.bits - (int)type.bits) + (f.type.code != type.code);
        if (score < best_score) {
            best_score = score;
            best = f;
        }
    }
    return best;
}

/// Converts a loaded image to ImageType (checking its static type and dimensions), or fails.
template <typename ImageType, CheckFunc check>
bool assign_loaded(const Runtime::Buffer<void> &loaded, const std::string &filename, ImageType *im,
                   const char *hint) {
    using Traits = ImageTraits<ImageType>;
    using Elem = std::remove_const_t<typename Traits::Elem>;
    bool type_ok = std::is_void<Elem>::value;
    if constexpr (!std::is_void<Elem>::value) type_ok = loaded.type() == halide_type_of<Elem>();
    bool dims_ok = Traits::dims == AnyDims || Traits::dims == loaded.dimensions();
    if (!type_ok || !dims_ok) {
        std::string want = "a Buffer";
        if constexpr (!std::is_void<Elem>::value) {
            want += "<" + type_name(halide_type_of<Elem>()) + ">";
        }
        if (Traits::dims != AnyDims) want += " of " + std::to_string(Traits::dims) + " dimensions";
        return fail<check>("Error loading", filename,
                           "the image holds " + type_name(loaded.type()) + " samples in " +
                               std::to_string(loaded.dimensions()) +
                               " dimensions, which cannot be assigned to " + want + hint);
    }
    *im = ImageType(loaded);
    return true;
}

} // namespace Internal

/// Converts images between element types with Halide's scaling rules (Internal::convert): the
/// result is a new dense buffer of the same shape, a Buffer<DstElemType> of the source's family
/// (loom::Buffer or Runtime::Buffer).
struct ImageTypeConversion {
    template <typename DstElemType, typename ImageType,
              typename = std::enable_if_t<!std::is_void<DstElemType>::value>>
    static typename Internal::ImageTraits<ImageType>::template Rebind<DstElemType>
    convert_image(const ImageType &src) {
        using Result = typename Internal::ImageTraits<ImageType>::template Rebind<DstElemType>;
        return Result(
            Internal::convert_buffer(Internal::runtime_view(src), halide_type_of<DstElemType>())
                .template as<DstElemType, AnyDims>());
    }
    /// To an element type known at run time: a Buffer<void> of the source's family.
    template <typename DstElemType = void, typename ImageType,
              typename = std::enable_if_t<std::is_void<DstElemType>::value>>
    static typename Internal::ImageTraits<ImageType>::template Rebind<void>
    convert_image(const ImageType &src, const halide_type_t &dst_type) {
        using Result = typename Internal::ImageTraits<ImageType>::template Rebind<void>;
        return Result(Internal::convert_buffer(Internal::runtime_view(src), dst_type));
    }
};

/// ImageTypeConversion::convert_image as a free function (a Loom convenience).
template <typename DstElemType, typename ImageType>
auto convert_image(const ImageType &src) {
    return ImageTypeConversion::convert_image<DstElemType>(src);
}
template <typename ImageType>
auto convert_image(const ImageType &src, const halide_type_t &dst_type) {
    return ImageTypeConversion::convert_image(src, dst_type);
}

/// Loads a file into *im in the file's own sample type (uint8 or uint16); a statically typed or
/// dimensioned ImageType that cannot hold it is a failure. Returns false on failure (with a
/// non-throwing check).
template <typename ImageType, Internal::CheckFunc check = Internal::CheckReturn>
bool load(const std::string &filename, ImageType *im) {
    Runtime::Buffer<void> loaded;
    if (!Internal::load_any<check>(filename, &loaded)) return false;
    return Internal::assign_loaded<ImageType, check>(loaded, filename, im, "");
}

/// Saves the image in the format of the filename's extension, which must hold its type and
/// dimension count exactly. Returns false on failure (with a non-throwing check).
template <typename ImageType, Internal::CheckFunc check = Internal::CheckReturn>
bool save(const ImageType &im, const std::string &filename) {
    return Internal::save_any<check>(Internal::runtime_view(im), filename);
}

/// The types and dimension counts the format of `filename` can save.
template <typename ImageType, Internal::CheckFunc check = Internal::CheckReturn>
bool save_query(const std::string &filename, std::set<FormatInfo> *info) {
    Internal::FileFormat fmt = Internal::format_of(Internal::lowercase_extension(filename));
    if (fmt == Internal::FileFormat::Unknown) {
        return Internal::unknown_format<check>("Error saving", filename);
    }
    *info = Internal::query(fmt);
    return true;
}

/// `Buffer<uint8_t> im = load_image("in.png");` loads in the file's sample type; assigning to a
/// Buffer of another element type (or static dimension count) is an error: use
/// load_and_convert_image. Errors go through CheckFail (stderr and loom::RuntimeError).
class load_image {
public:
    load_image(const std::string &f) : filename(f) {}

    template <typename ImageType,
              typename = std::enable_if_t<Internal::ImageTraits<ImageType>::value>>
    operator ImageType() const {
        Runtime::Buffer<void> loaded;
        ImageType im;
        if (Internal::load_any<Internal::CheckFail>(filename, &loaded)) {
            Internal::assign_loaded<ImageType, Internal::CheckFail>(
                loaded, filename, &im, " (did you mean to use load_and_convert_image?)");
        }
        return im;
    }

private:
    const std::string filename;
};

/// Like load_image, but converts the samples to the element type of the Buffer it is assigned
/// to (ImageTypeConversion's rules, e.g. uint8 255 -> 1.0f).
class load_and_convert_image {
public:
    load_and_convert_image(const std::string &f) : filename(f) {}

    template <typename ImageType,
              typename = std::enable_if_t<Internal::ImageTraits<ImageType>::value>>
    operator ImageType() const {
        using Elem = std::remove_const_t<typename Internal::ImageTraits<ImageType>::Elem>;
        Runtime::Buffer<void> loaded;
        ImageType im;
        if (!Internal::load_any<Internal::CheckFail>(filename, &loaded)) return im;
        if constexpr (!std::is_void<Elem>::value) {
            if (loaded.type() != halide_type_of<Elem>()) {
                loaded = Internal::convert_buffer(loaded, halide_type_of<Elem>());
            }
        }
        Internal::assign_loaded<ImageType, Internal::CheckFail>(loaded, filename, &im, "");
        return im;
    }

private:
    const std::string filename;
};

/// Saves an image whose type and dimension count the format holds (uint8/uint16 for PNG, PGM
/// and PPM; uint8 for JPEG); anything else is an error: use convert_and_save_image.
template <typename ImageType, Internal::CheckFunc check = Internal::CheckFail>
void save_image(const ImageType &im, const std::string &filename) {
    (void)save<ImageType, check>(im, filename);
}

/// Saves any image, first converting it to the closest type the format holds (e.g. float
/// [0, 1] -> uint8 for PNG) and adding dimensions it lacks; the image itself is unchanged.
template <typename ImageType, Internal::CheckFunc check = Internal::CheckFail>
void convert_and_save_image(const ImageType &im, const std::string &filename) {
    std::set<FormatInfo> info;
    if (!save_query<ImageType, check>(filename, &info)) return;
    Runtime::Buffer<const void> view = Internal::runtime_view(im);
    if (!view.raw_buffer()->host) {
        (void)Internal::fail<check>("Error saving", filename,
                                    "the buffer is undefined or has no memory");
        return;
    }
    FormatInfo best = Internal::best_save_format(view.type(), view.dimensions(), info);
    if (best.type == view.type() && best.dimensions == view.dimensions()) {
        (void)Internal::save_any<check>(view, filename);
        return;
    }
    Runtime::Buffer<void> converted = Internal::convert_buffer(view, best.type);
    while (converted.dimensions() < best.dimensions) converted.add_dimension();
    (void)Internal::save_any<check>(converted, filename);
}

} // namespace Tools
} // namespace Halide

#endif
