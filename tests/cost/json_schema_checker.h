// A JSON Schema checker for the subset of keywords cost/cost_schema.json
// uses; shared by the cost report and cost tool tests.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace dis::cost::test {

using nlohmann::json;

class SchemaChecker {
 public:
  explicit SchemaChecker(json root) : root_(std::move(root)) {}
  std::vector<std::string> check(const json& doc) {
    errors_.clear();
    visit(root_, doc, "$");
    return errors_;
  }

 private:
  static bool is_type(const json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    if (t == "integer") return v.is_number_integer();
    if (t == "number") return v.is_number();
    return false;
  }
  void fail(const std::string& where, const std::string& what) {
    errors_.push_back(where + ": " + what);
  }

  void visit(const json& schema, const json& v, const std::string& where) {
    static const std::set<std::string> kKnown = {
        "$schema",    "$id",   "title", "description", "type", "required", "additionalProperties",
        "properties", "items", "enum",  "minimum",     "$ref", "$defs"};
    for (const auto& [key, _] : schema.items())
      if (!kKnown.count(key)) fail(where, "schema keyword not supported by this checker: " + key);
    if (schema.contains("$ref")) {
      std::string ref = schema["$ref"];
      const std::string prefix = "#/$defs/";
      if (ref.rfind(prefix, 0) != 0 || !root_["$defs"].contains(ref.substr(prefix.size()))) {
        fail(where, "bad $ref " + ref);
        return;
      }
      visit(root_["$defs"][ref.substr(prefix.size())], v, where);
    }
    if (schema.contains("type")) {
      const json& t = schema["type"];
      bool ok = false;
      if (t.is_string()) ok = is_type(v, t);
      for (const auto& one : t.is_array() ? t : json::array()) ok = ok || is_type(v, one);
      if (!ok) {
        fail(where, "expected type " + t.dump() + ", got " + v.dump().substr(0, 60));
        return;
      }
    }
    if (schema.contains("enum")) {
      bool found = false;
      for (const auto& e : schema["enum"]) found = found || e == v;
      if (!found) fail(where, "not in enum: " + v.dump());
    }
    if (schema.contains("minimum") && v.is_number() &&
        v.get<double>() < schema["minimum"].get<double>())
      fail(where, "below minimum: " + v.dump());
    if (v.is_object()) {
      for (const auto& r : schema.value("required", json::array()))
        if (!v.contains(r.get<std::string>()))
          fail(where, "missing required key " + r.get<std::string>());
      const json props = schema.value("properties", json::object());
      for (const auto& [key, val] : v.items()) {
        if (props.contains(key))
          visit(props[key], val, where + "." + key);
        else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false)
          fail(where, "undocumented key " + key);
      }
    }
    if (v.is_array() && schema.contains("items"))
      for (std::size_t i = 0; i < v.size(); ++i)
        visit(schema["items"], v[i], where + "[" + std::to_string(i) + "]");
  }

  json root_;
  std::vector<std::string> errors_;
};

}  // namespace dis::cost::test
