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

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dis::cost {

// A report's text (from `path`, named in errors) as JSON, its fields' types
// checked. Throws InputError for malformed JSON or a document that is not a
// cost report.
nlohmann::json parse_report(std::string_view text, const std::string& path);
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
