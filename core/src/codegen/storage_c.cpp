// codegen/storage_c.cpp — C storage helpers per element type (codegen/storage_c.h).
#include "codegen/storage_c.h"

#include <set>

namespace fusion::codegen {
namespace {

constexpr const char* kF16 = R"(static inline float ld_f16(uint16_t h) {
  uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
  if (e == 0) {
    float f = (float)m * 5.9604644775390625e-8f;
    return s ? -f : f;
  }
  bits = e == 31 ? (s | 0x7f800000u | (m << 13)) : (s | ((e + 112u) << 23) | (m << 13));
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
static inline uint16_t st_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t s = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 255) return (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0u));
  int32_t ee = (int32_t)e - 112;
  if (ee >= 31) return (uint16_t)(s | 0x7c00u);
  if (ee <= 0) {
    if (ee < -10) return (uint16_t)s;
    m |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - ee), hm = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (hm & 1u))) hm++;
    return (uint16_t)(s | hm);
  }
  uint32_t hm = m >> 13, rem = m & 0x1fffu, h = s | ((uint32_t)ee << 10) | hm;
  if (rem > 0x1000u || (rem == 0x1000u && (hm & 1u))) h++;
  return (uint16_t)h;
}
)";

constexpr const char* kBf16 = R"(static inline float ld_bf16(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
static inline uint16_t st_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
)";

// E4M3FN: value n * 2^q with n the integer significand (8..15 normal, 0..7 subnormal at q = -9).
constexpr const char* kF8 = R"(static inline float ld_f8(uint8_t b) {
  int e = (b >> 3) & 15, m = b & 7;
  float a = e == 15 && m == 7 ? NAN : e == 0 ? ldexpf((float)m, -9) : ldexpf((float)(8 + m), e - 10);
  return (b & 0x80u) ? -a : a;
}
static inline uint8_t st_f8(float f) {
  uint8_t s = signbit(f) ? 0x80u : 0u;
  float a = fabsf(f);
  if (a != a || a == INFINITY) return (uint8_t)(s | 0x7fu);
  if (a == 0.0f) return s;
  int e;
  frexpf(a, &e);
  int q = (e - 1 > -6 ? e - 1 : -6) - 3;
  float n = nearbyintf(ldexpf(a, -q));
  if (n >= 16.0f) {
    n = 8.0f;
    q += 1;
  }
  if (q > 5 || (q == 5 && n > 14.0f)) return (uint8_t)(s | 0x7fu);
  if (n < 8.0f) return (uint8_t)(s | (uint8_t)n);
  return (uint8_t)(s | (uint8_t)((q + 10) << 3) | (uint8_t)(n - 8.0f));
}
)";

std::string same(const std::string& name, const char* c_type) {
  return std::string("static inline ") + c_type + " ld_" + name + "(" + c_type + " x) { return x; }\n" +
         "static inline " + c_type + " st_" + name + "(" + c_type + " x) { return x; }\n";
}

// Registers hold the type itself: ld and st copy; cv_T rounds a double result to it: truncate toward zero,
// saturate, NaN gives 0 (the bounds compared in double: exact for every type).
std::string integer(const Storage& s) {
  const std::string upper = s.name[0] == 'u' ? "UINT" : "INT", bits = std::to_string(s.bytes * 8);
  const std::string max = upper + bits + "_MAX", min = s.name[0] == 'u' ? "0" : "INT" + bits + "_MIN";
  return same(s.name, s.c_type.c_str()) + "static inline " + s.c_type + " cv_" + s.name +
         "(double f) {\n  if (f != f) return 0;\n  double t = trunc(f);\n" + "  return t >= (double)" + max + " ? " +
         max + " : t <= (double)" + min + " ? " + min + " : (" + s.c_type + ")t;\n}\n";
}

std::string base_helpers(const Storage& s) {
  switch (s.type) {
    case NumericType::f32: return same("f32", "float");
    case NumericType::f64: return same("f64", "double");
    case NumericType::f16: return kF16;
    case NumericType::bf16: return kBf16;
    case NumericType::f8: return kF8;
    case NumericType::boolean:
      return same("bool", "uint8_t") + "static inline uint8_t cv_bool(double f) { return (uint8_t)(f != 0.0); }\n";
    default: return integer(s);
  }
}

// A struct of s.bytes bytes carrying the type `base` in its first bytes (the rest zero); ld and st take and give
// the base type's register.
std::string struct_helpers(const Storage& s, const Storage& base) {
  const std::string& t = s.c_type;
  const std::string reg = register_type(compute_type(base.type));
  return "typedef struct { unsigned char b[" + std::to_string(s.bytes) + "]; } " + t + ";\n" + "static inline " + reg +
         " ld_" + s.name + "(" + t + " x) { " + base.c_type + " c; memcpy(&c, x.b, sizeof c); return ld_" + base.name +
         "(c); }\n" + "static inline " + t + " st_" + s.name + "(" + reg + " v) { " + t + " x; " + base.c_type +
         " c = st_" + base.name + "(v); memset(x.b, 0, sizeof x.b); memcpy(x.b, &c, sizeof c); return x; }\n";
}

Storage base_of(NumericType type) {
  FusionOp op;
  op.dtype = std::string(to_string(type));
  op.dtype_bytes = type_bytes(type);
  return storage_of(op);
}

// The register value a source element is made from: rnd in [-1, 1) for floats, whole numbers in [-8, 8) for
// signed integers and [0, 16) for unsigned, 0 or 1 for bool.
std::string seeded_value(NumericType type) {
  if (is_float(type)) return "rnd(seed, i)";
  const std::string cv = "cv_" + std::string(to_string(type));
  if (type == NumericType::boolean) return cv + "(rnd(seed, i) >= 0.0f)";
  if (to_string(type)[0] == 'u') return cv + "(floorf((rnd(seed, i) + 1.0f) * 8.0f))";
  return cv + "(floorf(rnd(seed, i) * 8.0f))";
}

// Text between `#ifndef NAME` / `#define NAME` and `#endif`, so that several programs concatenate into one
// translation unit (CodegenOptions::prefix) with each helper defined once.
std::string guarded(const std::string& name, const std::string& text) {
  return "#ifndef FUSION_" + name + "\n#define FUSION_" + name + "\n" + text + "#endif\n";
}

}  // namespace

std::string storage_helpers_c(const StorageSet& storages) {
  std::set<NumericType> types;
  for (const auto& [name, s] : storages) types.insert(s.type);
  std::string out;
  for (NumericType t : types) out += guarded(std::string(to_string(t)), base_helpers(base_of(t)));
  for (const auto& [name, s] : storages)
    if (s.c_type.rfind("e_", 0) == 0) out += guarded(s.name, struct_helpers(s, base_of(s.type)));
  return out;
}

std::string storage_fills_c(const StorageSet& storages) {
  std::string out;
  for (const auto& [n, s] : storages)
    out += guarded("fill_" + n, "static void fill_" + n + "(" + s.c_type + " *p, uint64_t n, uint64_t seed) {\n" +
                                    "  for (uint64_t i = 0; i < n; ++i) p[i] = st_" + n + "(" + seeded_value(s.type) +
                                    ");\n}\n" + "static void widen_" + n + "(const " + s.c_type +
                                    " *p, double *out, uint64_t n) {\n  for (uint64_t i = 0; i < n; ++i) out[i] = ld_" +
                                    n + "(p[i]);\n}\n");
  return out;
}

}  // namespace fusion::codegen
