// cost --diff: compares two saved JSON reports (cost_schema.json).
//
// By source line (the default): each line executed in both reports is
// compared on its total time, the sum over its instructions of count x mean.
// The significance test uses the total's standard error, from each
// instruction's per-execution deviation (variance of a sum of count
// executions: count^2 / timed x std^2, so sampled timings count as what
// they are), in a two-sided normal test at the given confidence; when both
// reports merged several runs (--repeat) the per-run line totals are
// compared with Welch's t instead. Instruction counts per line are compared
// exactly. Count-mode reports compare counts only.
//
// By instruction (--by pc): each instruction of each line, Welch's t on its
// per-execution times (n = timed executions, mean, std).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dis::cost {

// A report's text (from `path`, named in errors) as JSON, its fields' types
// checked. Throws InputError for malformed JSON or a document that is not a
// cost report.
nlohmann::json parse_report(std::string_view text, const std::string& path);
// One source line of the comparison by line (executed in a, b or both).
struct LineDiff {
  std::string module, text;
  std::int64_t file = -1, line = 0;
  bool in_a = false, in_b = false;
  std::uint64_t a_instructions = 0, b_instructions = 0;
  double a_total_ns = 0, b_total_ns = 0;  // count x mean over its instructions
  // Time mode, executed in both: the test's p value, whether it could be
  // tested (every instruction timed twice or more) and its verdict.
  double p = 1;
  bool testable = true, significant = false;
};
struct LineComparison {
  bool timed = false;           // both reports in time mode
  bool runs_each = false;       // both merged several runs: Welch's t over the runs
  std::vector<LineDiff> lines;  // by (module, file, line)
};
// The per-line comparison the text (and the HTML page) show.
LineComparison compare_lines(const nlohmann::json& a, const nlohmann::json& b,
                             double confidence_percent);
// A saved report, read and checked (parse_report). Throws InputError.
nlohmann::json read_report(const std::string& path);
// The comparison as text. Throws InputError for an unreadable file, malformed
// JSON, or a document that is not a cost report.
std::string diff_reports(const std::string& a_path, const std::string& b_path,
                         double confidence_percent, bool by_instruction = false);
// By source line.
std::string diff_reports(const nlohmann::json& a, const nlohmann::json& b,
                         double confidence_percent, const std::string& a_name = "a",
                         const std::string& b_name = "b");
std::string diff_by_instruction(const nlohmann::json& a, const nlohmann::json& b,
                                double confidence_percent, const std::string& a_name = "a",
                                const std::string& b_name = "b");

}  // namespace dis::cost
