// The command line all eight tools share, defined once (CLI11): the tool's
// own name in usage lines and messages (never argv[0]'s build path),
// --version, --log, -o/--out as the output file, usage errors as
// "TOOL: message" with exit 2.
//
// Tools that run a program (cost, dis) follow one rule for its arguments:
//   tool [options] FILE [args...]      what follows FILE is the program's
//   tool -f FILE [options] [-- args]   options anywhere are the tool's;
//                                      words (not options) are the program's
// An option the tool does not know, anywhere before FILE or `--`, is an
// error naming it: it is never passed to the program.
// Header-only: only the tools' mains include it, and they link CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "log_option.h"

namespace dis::cli {

// CLI11's help with a usage line given by the tool (its positional
// arguments as users type them).
class UsageFormatter : public CLI::Formatter {
 public:
  explicit UsageFormatter(std::string usage) : usage_(std::move(usage)) {}
  std::string make_usage(const CLI::App* app, std::string name) const override {
    return usage_.empty() ? CLI::Formatter::make_usage(app, std::move(name))
                          : "Usage: " + usage_ + "\n";
  }

 private:
  std::string usage_;
};

class Tool {
 public:
  // `usage` is the line after "Usage: " ("" lets CLI11 build it from the
  // options and positionals, under the tool's name).
  Tool(std::string name, const std::string& description, std::string usage = "")
      : name_(std::move(name)), app_(description, name_) {
    app_.formatter(std::make_shared<UsageFormatter>(std::move(usage)));
    app_.set_version_flag("--version", name_ + " " + DIS_VERSION);
    add_log_option(app_);
  }

  CLI::App& app() { return app_; }
  const std::string& name() const { return name_; }

  // -o,--out FILE: where the tool's output goes instead of stdout.
  CLI::Option* add_out(std::string& path, const std::string& what = "") {
    return app_
        .add_option("-o,--out", path,
                    what.empty() ? "write the output to FILE instead of stdout" : what)
        ->option_text("FILE");
  }

  // Parses the whole command line; nullopt to go on, else the exit status
  // (0 after --help or --version, 2 after a usage error, said on stderr).
  std::optional<int> parse(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return parse_args(std::move(args));
  }

  // Parses a program-running tool's command line (the rule above); `file`
  // is the -f option's variable. Sets `file` (left empty when no program
  // was named: the tool decides) and `program_args`.
  std::optional<int> parse_program(int argc, char** argv, CLI::Option* file_option,
                                   std::string& file, std::vector<std::string>& program_args) {
    std::vector<std::string> tool_args;
    std::optional<std::string> positional;
    std::vector<std::string> words;  // with -f: the program's, before --
    bool file_seen = false;
    int i = 1;
    for (; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--") {
        ++i;
        break;
      }
      if (a.size() < 2 || a[0] != '-') {
        // With -f FILE, a word is the program's (as after --): the paper's
        // scripts wrote `cost -f prog.b 12`.
        if (file_seen) {
          words.push_back(a);
          continue;
        }
        positional = a;
        ++i;
        break;
      }
      const std::string key = option_key(a);
      const CLI::Option* opt = find_option(key);
      if (opt == nullptr) return usage_error("unknown option " + key);
      if (opt == file_option) file_seen = true;
      tool_args.push_back(a);
      // A value attached (--top=5, -fprog.b) takes no further words.
      const bool attached = a.find('=') != std::string::npos || (a[1] != '-' && a.size() > 2);
      int takes = attached ? 0 : opt->get_items_expected_min();
      for (; takes > 0 && i + 1 < argc; --takes) tool_args.push_back(argv[++i]);
    }
    std::vector<std::string> rest(argv + i, argv + argc);
    if (!positional && !file_seen && !rest.empty()) {
      // `tool -- FILE args`: FILE is the first word after --.
      positional = rest.front();
      rest.erase(rest.begin());
    }
    if (std::optional<int> rc = parse_args(std::move(tool_args))) return rc;
    if (positional) {
      if (!file.empty()) return usage_error(unexpected(*positional));
      file = *positional;
    }
    program_args = std::move(words);
    program_args.insert(program_args.end(), rest.begin(), rest.end());
    return std::nullopt;
  }

  // The option named `key` (--gc, -f), or nullptr. Not CLI11's
  // get_option_no_throw: that is noexcept yet allocates, so running out of
  // memory inside it would terminate the tool instead of reaching its main.
  const CLI::Option* find_option(const std::string& key) const {
    for (const CLI::Option* o : app_.get_options())
      if (o->check_name(key)) return o;
    return nullptr;
  }

  // "TOOL: message" on stderr, a pointer to --help; returns 2.
  int usage_error(const std::string& message) const {
    std::cerr << name_ << ": " << message << "\n"
              << "Run '" << name_ << " --help' for the options.\n";
    return 2;
  }

 private:
  static std::string option_key(const std::string& a) {
    if (a[1] == '-') return a.substr(0, a.find('='));
    return a.substr(0, 2);
  }
  static std::string unexpected(const std::string& a) {
    return "unexpected argument '" + a + "': the program is given by -f and by name";
  }

  std::optional<int> parse_args(std::vector<std::string> args) {
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    try {
      app_.parse(args);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app_.exit(e);
      return usage_error(e.what());
    }
    return std::nullopt;
  }

  std::string name_;
  CLI::App app_;
};

}  // namespace dis::cli
