// The VM's own /dev files (vm/builtins/sys_devices.h): tests/vm/devices/
// devices.b reads and writes each with the built dis, /dev/time fixed by
// DIS_FIXED_TIME and the VM's stdin given, its whole output compared.
#include <gtest/gtest.h>
#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

std::string prog() {
  return "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "devices" / "devices.b").string() + "'";
}

std::string host_user() {
  const passwd* pw = ::getpwuid(::getuid());
  return pw ? pw->pw_name : "none";
}

std::string host_name() {
  char buf[256] = {};
  ::gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string field(const std::string& s) { return std::to_string(s.size()) + "+0 [" + s + "]"; }

TEST(Devices, EachDeviceReadsAndWritesAsInferno) {
  distest::Result r =
      distest::run_dis(prog(), "printf 'typed\\n' | DIS_FIXED_TIME=1234567890123456 ");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::string want =
      "time: 16+0 [1234567890123456]\n"
      "pid: 12+0 [          1 ]\n"
      "user: " +
      field(host_user()) + "\n" + "sysname: " + field(host_name()) + "\n" +
      "null: 0+0 []\n"
      "fd2path: /dev/time\n"
      "pread at 10: 123456\n"
      "seek: 12\n"
      "after seek: 3456\n"
      "write time: -1 permission denied\n"
      "write null: 7\n"
      "random: 32 32 differ 1\n"
      "consctl: 5\n"
      "to cons\n"
      "cons write: 8\n"
      "cons read: 6 [typed\n]\n"
      "busec: 1 1\n";
  // The version in /dev/sysctl is the project's: checked by form, then dropped.
  std::string out = r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("sysctl: [0-9]+\\+0 \\[Dis VM [0-9.]+\\]\n")))
      << out;
  out.erase(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0)));
  EXPECT_EQ(out, want);
}

TEST(Devices, TimeIsMicrosecondsSinceTheEpoch) {
  distest::Result r = distest::run_dis(prog(), "unset DIS_FIXED_TIME; printf 'x\\n' | ");
  ASSERT_EQ(r.status, 0) << r.err;
  auto open = r.out.find('[');
  ASSERT_EQ(r.out.rfind("time: ", 0), 0u) << r.out;
  long long us = std::stoll(r.out.substr(open + 1));
  long long now = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  EXPECT_LT(std::llabs(now - us), 60'000'000LL) << r.out;
}

}  // namespace
