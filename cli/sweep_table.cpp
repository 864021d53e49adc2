// sweep_table.cpp — fixed-width text rendering of a sweep.
#include "sweep_table.h"

#include "text_format.h"

namespace fusion::cli {

std::string format_sweep_table(const SweepResult& result) {
  std::string out = pad(result.dim, 12) + pad("bytes unfused", 20) + pad("bytes fused", 20) + pad("speedup", 10) +
                    pad("time unfused us", 17) + pad("time fused us", 15) + pad("speedup", 10) + pad("kernels", 9) +
                    "grouping\n";
  for (const SweepRow& r : result.rows)
    out += pad(std::to_string(r.value), 12) + pad(grouped(r.bytes_unfused), 20) + pad(grouped(r.bytes_fused), 20) +
           pad(fixed(r.speedup_estimate, "%.3fx"), 10) + pad(fixed(r.time_unfused_us, "%.2f"), 17) +
           pad(fixed(r.time_fused_us, "%.2f"), 15) + pad(fixed(r.time_speedup, "%.3fx"), 10) +
           pad(std::to_string(r.kernels_fused), 9) +
           (r.changed ? "changes at " + result.dim + " = " + std::to_string(r.change_at) : "") + "\n";
  out += result.changes.empty() ? "\nthe grouping is the same at every value swept\n"
                                : "\nthe grouping changes " + std::to_string(result.changes.size()) +
                                      (result.changes.size() == 1 ? " time" : " times") + " across the sweep\n";
  return out;
}

}  // namespace fusion::cli
