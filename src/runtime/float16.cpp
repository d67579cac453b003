// Reading IEEE binary16 bits on the host, for code that holds Float(16) data as uint16_t. Every
// half value is exactly a float: the exponent is rebiased and the mantissa widened.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

extern "C" {

float halide_float16_bits_to_float(uint16_t bits) {
    uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
    int exponent = (bits >> 10) & 0x1f;
    uint32_t mantissa = bits & 0x3ff;
    uint32_t result;
    if (exponent == 0x1f) {
        result = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        result = sign | ((uint32_t)(exponent - 15 + 127) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        result = sign;
    } else {
        // Subnormal half: shift the leading one into the implicit position.
        int e = -14;
        while (!(mantissa & 0x400)) {
            mantissa <<= 1;
            e--;
        }
        result = sign | ((uint32_t)(e + 127) << 23) | ((mantissa & 0x3ff) << 13);
    }
    float f;
    memcpy(&f, &result, sizeof(f));
    return f;
}

double halide_float16_bits_to_double(uint16_t bits) {
    return (double)halide_float16_bits_to_float(bits);
}

} // extern "C"
