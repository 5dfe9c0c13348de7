#include "environment.h"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>

#include "timer.h"

#if DIS_HAVE_TSC
#include <cpuid.h>
#endif

#ifndef DIS_VERSION
#define DIS_VERSION "unknown"
#endif
#ifndef DIS_BUILD_TYPE
#define DIS_BUILD_TYPE "unknown"
#endif

namespace dis::vm {

namespace {

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\r\n");
  auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The first "key : value" line of /proc/cpuinfo among `keys`.
std::string cpuinfo_value(std::initializer_list<const char*> keys) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon));
    for (const char* k : keys)
      if (key == k) return trim(line.substr(colon + 1));
  }
  return "";
}

std::string hypervisor_name() {
#if DIS_HAVE_TSC
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31))) return "";
  // Leaf 0x40000000 is the hypervisor's own: the vendor in ebx, ecx, edx.
  __cpuid(0x40000000u, a, b, c, d);
  char vendor[13] = {};
  for (int i = 0; i < 4; ++i) {
    vendor[i] = static_cast<char>(b >> (8 * i));
    vendor[4 + i] = static_cast<char>(c >> (8 * i));
    vendor[8 + i] = static_cast<char>(d >> (8 * i));
  }
  std::string v = trim(std::string(vendor, strnlen(vendor, 12)));
  if (v == "KVMKVMKVM") return "KVM";
  if (v == "Microsoft Hv") return "Hyper-V";
  if (v == "VMwareVMware") return "VMware";
  if (v == "XenVMMXenVMM") return "Xen";
  if (v == "TCGTCGTCGTCG") return "QEMU (TCG)";
  if (v == "VBoxVBoxVBox") return "VirtualBox";
  if (v == "ACRNACRNACRN") return "ACRN";
  if (v == "bhyve bhyve") return "bhyve";
  return v.empty() ? "unknown hypervisor" : v;
#else
  std::ifstream in("/sys/hypervisor/type");
  std::string t;
  std::getline(in, t);
  return trim(t);
#endif
}

std::string compiler_name() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool needs_quotes(const std::string& w) {
  if (w.empty()) return true;
  for (char ch : w) {
    bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 std::string_view("-_./=:,+@%").find(ch) != std::string_view::npos;
    if (!plain) return true;
  }
  return false;
}

}  // namespace

std::string quote_command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& w : argv) {
    if (!out.empty()) out += ' ';
    if (!needs_quotes(w)) {
      out += w;
      continue;
    }
    out += '\'';
    for (char ch : w) {
      if (ch == '\'')
        out += "'\\''";
      else
        out += ch;
    }
    out += '\'';
  }
  return out;
}

Environment collect_environment(const std::vector<std::string>& argv, bool with_timer) {
  Environment env;
  env.cpu_model = cpuinfo_value({"model name", "Model", "Hardware", "cpu model", "Processor"});
  if (env.cpu_model.empty()) env.cpu_model = "unknown";
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  env.cpus = n > 0 ? static_cast<unsigned>(n) : 0;
  // Calibrating takes ~30 ms, which a run that reads no clock need not pay.
  if (with_timer) {
    const TimerInfo& t = timer();
    env.timer = t.name;
    env.tsc_hz = t.tsc ? t.ticks_per_ns * 1e9 : 0;
  } else {
    env.timer = "none (no clock read)";
  }
  env.hypervisor = hypervisor_name();
  utsname u{};
  if (uname(&u) == 0)
    env.kernel = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  else
    env.kernel = "unknown";
  env.build_type = DIS_BUILD_TYPE;
  if (env.build_type.empty()) env.build_type = "unknown";
  env.compiler = compiler_name();
  env.version = DIS_VERSION;
  env.date = utc_now();
  env.command_line = quote_command_line(argv);
  return env;
}

std::vector<std::pair<std::string, std::string>> environment_fields(const Environment& env) {
  std::string tsc = env.tsc_hz > 0 ? fmt::format("{:.3f} GHz (calibrated)", env.tsc_hz / 1e9)
                                   : std::string("not used");
  return {
      {"cpu", env.cpu_model},
      {"cpus", std::to_string(env.cpus)},
      {"tsc", tsc},
      {"timer", env.timer},
      {"hypervisor", env.hypervisor.empty() ? std::string("none") : env.hypervisor},
      {"kernel", env.kernel},
      {"build", env.build_type},
      {"compiler", env.compiler},
      {"version", env.version},
      {"date", env.date},
      {"command", env.command_line},
  };
}

std::string environment_text(const Environment& env, const std::string& prefix) {
  std::string out;
  for (const auto& [label, value] : environment_fields(env))
    out += fmt::format("{}{}: {}\n", prefix, label, value);
  return out;
}

nlohmann::json environment_json(const Environment& env) {
  nlohmann::json j;
  j["cpu"] = env.cpu_model;
  j["cpus"] = env.cpus;
  j["tsc_hz"] = env.tsc_hz;
  j["timer"] = env.timer;
  j["hypervisor"] =
      env.hypervisor.empty() ? nlohmann::json(nullptr) : nlohmann::json(env.hypervisor);
  j["kernel"] = env.kernel;
  j["build_type"] = env.build_type;
  j["compiler"] = env.compiler;
  j["version"] = env.version;
  j["date"] = env.date;
  j["command"] = env.command_line;
  return j;
}

}  // namespace dis::vm
