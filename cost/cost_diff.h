// cost --diff: compares two saved JSON reports (cost_schema.json) line by
// line. For each instruction of each source line in both reports, Welch's t
// test on its per-execution times (n = timed executions, mean, std) says
// whether the difference of means is significant at the given confidence;
// instruction counts are compared exactly. Count-mode reports compare counts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace dis::cost {

// The comparison as text. Throws InputError for an unreadable file, malformed
// JSON, or a document that is not a cost report.
std::string diff_reports(const std::string& a_path, const std::string& b_path,
                         double confidence_percent);
std::string diff_reports(const nlohmann::json& a, const nlohmann::json& b,
                         double confidence_percent, const std::string& a_name = "a",
                         const std::string& b_name = "b");

}  // namespace dis::cost
