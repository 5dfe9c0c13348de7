// samples/embed/embed.cpp, the embedding example, run as a user runs it:
// its whole standard output, its status, and a Limbo file run through it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

// Runs `cmd` with stderr discarded; its stdout and exit status.
std::string run(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int st = pclose(p);
  status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

TEST(EmbedExample, PrintsGreetingResultAndTheLimboError) {
  int status = 0;
  const std::string out = run(std::string(DIS_BIN_DIR) + "/embed_example", status);
  EXPECT_EQ(out, "hello, world\nfib(20) = 6765\nerror: hello.b:16: zero divide\n");
  EXPECT_EQ(status, 1);
}

TEST(EmbedExample, RunsALimboFileWithItsArguments) {
  const std::string path = ::testing::TempDir() + "embed_example_prog.b";
  std::ofstream(path)
      << "implement P;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
         "P: module { init: fn(nil: ref Draw->Context, argv: list of string); };\n"
         "Greet: module { greet: fn(who: string): string; };\n"
         "init(nil: ref Draw->Context, argv: list of string)\n{\n"
         "\tsys := load Sys Sys->PATH;\n"
         "\tsys->print(\"%s\\n\", (load Greet \"$Greet\")->greet(hd tl argv));\n}\n";
  int status = 1;
  const std::string out =
      run(std::string(DIS_BIN_DIR) + "/embed_example " + path + " file", status);
  EXPECT_EQ(out, "hello, file\n");
  EXPECT_EQ(status, 0);
}

}  // namespace
