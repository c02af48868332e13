// JSON text helpers shared by the runtime's writers (the profiler's Chrome trace, the tracer's
// graph).
#pragma once

#include <cstdio>
#include <string>

namespace gradgen {
namespace util {

/// Returns s as a JSON string literal: quoted, with `"` and `\` escaped and control characters
/// written as \u00XX.
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace util
}  // namespace gradgen
