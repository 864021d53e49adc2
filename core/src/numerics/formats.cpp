// numerics/formats.cpp — element formats of fusion/numerics.h: which type an op holds, rounding to it in one
// step from a double (IEEE round-to-nearest-even), bit patterns of f16/bf16, and distances in ulps.
//
// A float format is (mantissa bits m, smallest normal exponent emin, largest finite value, overflow). Rounding
// scales x by the quantum 2^(max(e, emin) - m) of its binade (e the exponent of its leading bit), rounds to an
// integer with ties to even (std::nearbyint in the default rounding mode, f64.nearest in WebAssembly) and scales
// back: both scalings are exact, so the one rounding is the only one. The ordinal of a value counts the
// representable values from 0 up to it; ulp_distance is the difference of ordinals.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "fusion/numerics.h"

namespace fusion {
namespace {

struct FloatFormat {
  int mantissa_bits;
  int min_exponent;       // exponent of the smallest normal value
  double max_finite;
  bool overflow_is_nan;   // E4M3FN has no infinities
};

constexpr FloatFormat kF16{10, -14, 65504.0, false};
constexpr FloatFormat kBf16{7, -126, 3.3895313892515355e38, false};
constexpr FloatFormat kF8{3, -6, 448.0, true};
constexpr FloatFormat kF32{23, -126, 3.4028234663852886e38, false};
constexpr FloatFormat kF64{52, -1022, std::numeric_limits<double>::max(), false};

const FloatFormat& format_of(NumericType type) {
  switch (type) {
    case NumericType::f16: return kF16;
    case NumericType::bf16: return kBf16;
    case NumericType::f8: return kF8;
    case NumericType::f64: return kF64;
    default: return kF32;
  }
}

int leading_exponent(double magnitude) {
  int e = 0;
  std::frexp(magnitude, &e);
  return e - 1;
}

// 2^e for a normal double exponent, built from its bits (exact, and much faster than ldexp).
double power_of_two(int e) {
  const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
  double out = 0.0;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

double round_float(const FloatFormat& f, double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0) {
    if (std::isinf(x) && f.overflow_is_nan) return std::numeric_limits<double>::quiet_NaN();
    return x;
  }
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  // The exponent of the leading bit (a subnormal double is far below every format here: frexp finds it).
  const int lead = biased == 0 ? leading_exponent(std::fabs(x)) : biased - 1023;
  const int quantum = std::max(lead, f.min_exponent) - f.mantissa_bits;
  const double y = quantum > -1000 && quantum < 1000
                       ? std::nearbyint(x * power_of_two(-quantum)) * power_of_two(quantum)
                       : std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  if (std::fabs(y) > f.max_finite)
    return f.overflow_is_nan ? std::numeric_limits<double>::quiet_NaN() : std::copysign(HUGE_VAL, x);
  return y;
}

// f16 and bf16 from a float by its bits: add half a quantum minus one, plus the kept lowest bit (ties to even),
// and clear the dropped bits; a carry moves into the exponent as it should. nullopt where this does not apply
// (NaN, infinities, f16's subnormals and overflow), which round_float handles.
std::optional<double> round_float_bits(NumericType type, float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return std::nullopt;
  const int drop = type == NumericType::bf16 ? 16 : 13;
  if (type == NumericType::f16 && (magnitude < 0x38800000u || magnitude >= 0x477fe000u)) return std::nullopt;
  const std::uint32_t half = (1u << (drop - 1)) - 1 + ((bits >> drop) & 1u);
  bits = (bits + half) & ~((1u << drop) - 1);
  float y = 0.0f;
  std::memcpy(&y, &bits, sizeof y);
  return static_cast<double>(y);
}

struct IntRange {
  double low, high;
};

IntRange range_of(NumericType type) {
  switch (type) {
    case NumericType::i8: return {-128.0, 127.0};
    case NumericType::i16: return {-32768.0, 32767.0};
    case NumericType::i32: return {-2147483648.0, 2147483647.0};
    case NumericType::u8: return {0.0, 255.0};
    case NumericType::u16: return {0.0, 65535.0};
    case NumericType::u32: return {0.0, 4294967295.0};
    case NumericType::u64: return {0.0, 18446744073709551615.0};
    default: return {-9223372036854775808.0, 9223372036854775807.0};
  }
}

// How many representable non-negative values lie below |v| (v a finite value of the format), signed.
double ordinal(const FloatFormat& f, double v) {
  const double a = std::fabs(v);
  const double steps = std::ldexp(1.0, f.mantissa_bits);
  double index = 0.0;
  if (a < std::ldexp(1.0, f.min_exponent)) {
    index = std::ldexp(a, f.mantissa_bits - f.min_exponent);
  } else {
    const int e = leading_exponent(a);
    index = (e - f.min_exponent + 1) * steps + (std::ldexp(a, -e) - 1.0) * steps;
  }
  return std::signbit(v) ? -index : index;
}

}  // namespace

NumericType numeric_type(const FusionOp& op) {
  const std::string& d = op.dtype;
  if (d == "f32" || d == "float32" || d == "float") return NumericType::f32;
  if (d == "f16" || d == "float16" || d == "half") return NumericType::f16;
  if (d == "bf16" || d == "bfloat16") return NumericType::bf16;
  if (d == "f64" || d == "float64" || d == "double") return NumericType::f64;
  if (d == "f8") return NumericType::f8;
  if (d == "i8") return NumericType::i8;
  if (d == "i16") return NumericType::i16;
  if (d == "i32") return NumericType::i32;
  if (d == "i64" || d == "int64") return NumericType::i64;
  if (d == "u8") return NumericType::u8;
  if (d == "u16") return NumericType::u16;
  if (d == "u32") return NumericType::u32;
  if (d == "u64") return NumericType::u64;
  if (d == "bool") return NumericType::boolean;
  switch (op.dtype_bytes) {
    case 8: return NumericType::f64;
    case 2: return NumericType::f16;
    case 1: return NumericType::f8;
    default: return NumericType::f32;
  }
}

std::string_view to_string(NumericType type) {
  switch (type) {
    case NumericType::f64: return "f64";
    case NumericType::f32: return "f32";
    case NumericType::f16: return "f16";
    case NumericType::bf16: return "bf16";
    case NumericType::f8: return "f8";
    case NumericType::i8: return "i8";
    case NumericType::i16: return "i16";
    case NumericType::i32: return "i32";
    case NumericType::i64: return "i64";
    case NumericType::u8: return "u8";
    case NumericType::u16: return "u16";
    case NumericType::u32: return "u32";
    case NumericType::u64: return "u64";
    case NumericType::boolean: return "bool";
  }
  return "f32";
}

bool is_float(NumericType type) {
  return type == NumericType::f64 || type == NumericType::f32 || is_low_precision_float(type);
}

bool is_low_precision_float(NumericType type) {
  return type == NumericType::f16 || type == NumericType::bf16 || type == NumericType::f8;
}

NumericType compute_type(NumericType type) {
  if (type == NumericType::f64) return type;
  return is_float(type) ? NumericType::f32 : type;
}

double round_to_format(NumericType type, double x) {
  if (type == NumericType::f64) return x;
  if (type == NumericType::f32) return static_cast<double>(static_cast<float>(x));
  if ((type == NumericType::f16 || type == NumericType::bf16) && static_cast<double>(static_cast<float>(x)) == x)
    if (const std::optional<double> fast = round_float_bits(type, static_cast<float>(x))) return *fast;
  if (is_float(type)) return round_float(format_of(type), x);
  if (type == NumericType::boolean) return x != 0.0 ? 1.0 : 0.0;
  if (std::isnan(x)) return 0.0;
  const IntRange r = range_of(type);
  return std::clamp(std::trunc(x), r.low, r.high);
}

std::uint16_t bf16_bits(double x) {
  const float f = static_cast<float>(round_float(kBf16, x));
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<std::uint16_t>(bits >> 16);
}

std::uint16_t f16_bits(double x) {
  const double y = round_float(kF16, x);
  const std::uint16_t sign = std::signbit(y) ? 0x8000 : 0;
  if (std::isnan(y)) return 0x7e00;
  if (std::isinf(y)) return sign | 0x7c00;
  const double a = std::fabs(y);
  if (a < std::ldexp(1.0, -14)) return sign | static_cast<std::uint16_t>(std::ldexp(a, 24));
  const int e = leading_exponent(a);
  const auto mantissa = static_cast<std::uint16_t>(std::ldexp(a, 10 - e) - 1024.0);
  return sign | static_cast<std::uint16_t>((e + 15) << 10) | mantissa;
}

double ulp_distance(NumericType type, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0.0 : HUGE_VAL;
  if (a == b) return 0.0;
  if (std::isinf(a) || std::isinf(b)) return HUGE_VAL;
  if (!is_float(type)) return std::fabs(a - b);
  const FloatFormat& f = format_of(type);
  return std::fabs(ordinal(f, a) - ordinal(f, b));
}

}  // namespace fusion
