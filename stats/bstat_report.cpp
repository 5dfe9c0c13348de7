#include "bstat_report.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "observations.h"
#include "stats.h"

namespace dis::cost {

namespace {

double confidence_of(const BstatOptions& opt) {
  return kConfidenceLevels[static_cast<std::size_t>(opt.ministat.confidence_index)];
}

const char* magnitude(double d) {
  double a = std::fabs(d);
  if (a < 0.2) return "negligible";
  if (a < 0.5) return "small";
  if (a < 0.8) return "medium";
  return "large";
}

std::string verdict(bool significant, double pct) {
  return significant ? fmt::format("difference at {:.1f}% confidence", pct)
                     : fmt::format("no difference proven at {:.1f}% confidence", pct);
}

std::string band_list(const Stratification& st) {
  std::string out;
  for (const Band& b : st.bands) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{:g}..{:g} (n={})", b.lo, b.hi, b.n);
  }
  return out;
}

}  // namespace

std::string bstat_extras(const std::vector<Sample>& samples, const BstatOptions& opt) {
  if (!opt.welch && !opt.rank && !opt.effect && !opt.paired) return {};
  double pct = confidence_of(opt);
  SampleStats ref = describe(samples[0].values);
  std::string out;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    SampleStats s = describe(samples[i].values);
    out += fmt::format("{} vs {}:\n", sample_symbol(i), sample_symbol(0));
    if (opt.welch) {
      WelchResult w = welch_t(s, ref, pct);
      out += fmt::format("\tWelch's t: {:g} +/- {:g} (df {:.2f}, t = {:.4g}, p = {:.3g}): {}\n",
                         w.diff, w.halfwidth, w.df, w.t_stat, w.p, verdict(w.significant, pct));
    }
    if (opt.rank) {
      MannWhitneyResult m = mann_whitney(samples[i].values, samples[0].values);
      bool sig = m.p < 1 - pct / 100;
      out +=
          fmt::format("\tMann-Whitney U = {:g} ({}, p = {:.3g}): {}\n", m.u,
                      m.exact ? "exact" : fmt::format("z = {:.3f}", m.z), m.p, verdict(sig, pct));
    }
    if (opt.paired) {
      PairedResult pr = paired_t(samples[i].values, samples[0].values, pct);
      out += fmt::format(
          "\tPaired t: {:g} +/- {:g} ({:.4g}% +/- {:.4g}%; {} pairs, df {:g}, t = {:.4g}, p = "
          "{:.3g}): {}\n",
          pr.diff, pr.halfwidth, pr.pct, pr.pct_halfwidth, pr.n, pr.df, pr.t_stat, pr.p,
          verdict(pr.significant, pct));
    }
    if (opt.effect) {
      EffectSize e = effect_size(s, ref);
      out += fmt::format("\tEffect size: Cohen's d = {:.3g}, Hedges' g = {:.3g} ({})\n", e.cohen_d,
                         e.hedges_g, magnitude(e.hedges_g));
    }
  }
  return out;
}

std::vector<std::string> bstat_warnings(const std::vector<Sample>& samples,
                                        const BstatOptions& opt) {
  std::vector<std::string> out;
  double pct = confidence_of(opt);
  double alpha = 1 - pct / 100;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (s.values.size() < 5) {
      out.push_back(
          fmt::format("{}: only {} values: too few to check that they are normally "
                      "distributed, which the t test assumes",
                      s.name, s.values.size()));
    }
    if (i > 0) {
      MannWhitneyResult m = mann_whitney(s.values, samples[0].values);
      if (m.min_p > alpha) {
        out.push_back(
            fmt::format("{} vs {}: samples too small to prove any difference without "
                        "assuming normality (smallest possible rank-test p = {:.3g} "
                        "> {:.3g})",
                        s.name, samples[0].name, m.min_p, alpha));
      }
    }
    std::vector<std::size_t> idx = outlier_indices(s.values);
    if (!idx.empty()) {
      std::string list;
      for (std::size_t k = 0; k < idx.size() && k < 5; ++k)
        list += fmt::format("{}{:g}", k ? ", " : "", s.values[idx[k]]);
      if (idx.size() > 5) list += ", ...";
      out.push_back(
          fmt::format("{}: {} outlier{} more than 2 standard deviations from the mean "
                      "(plot --outliers 1 removes them): {}",
                      s.name, idx.size(), idx.size() == 1 ? "" : "s", list));
    }
    Stratification st = detect_strata(s.values);
    if (st.found) {
      out.push_back(
          fmt::format("{}: stratified: values fall into {} bands with nothing "
                      "between them: {}; the mean and the t test describe neither band",
                      s.name, st.bands.size(), band_list(st)));
    }
  }
  return out;
}

std::string bstat_json(const std::vector<Sample>& samples, const BstatOptions& opt) {
  using nlohmann::json;
  double pct = confidence_of(opt);
  json doc;
  doc["confidence"] = pct;
  doc["t_quantiles"] = opt.ministat.exact_t ? "exact" : "ministat-table";
  std::vector<SampleStats> stats;
  json js = json::array();
  for (const Sample& s : samples) {
    SampleStats st = describe(s.values);
    stats.push_back(st);
    json o{{"name", s.name},      {"n", st.n},       {"min", st.min},      {"max", st.max},
           {"median", st.median}, {"mean", st.mean}, {"stddev", st.stddev}};
    json outl = json::array();
    for (std::size_t k : outlier_indices(s.values)) outl.push_back(s.values[k]);
    o["outliers"] = outl;
    Stratification strata = detect_strata(s.values);
    json bands = json::array();
    for (const Band& b : strata.bands) bands.push_back({{"lo", b.lo}, {"hi", b.hi}, {"n", b.n}});
    o["strata"] = bands;
    js.push_back(o);
  }
  doc["samples"] = js;
  json cmp = json::array();
  for (std::size_t i = 1; i < samples.size(); ++i) {
    StudentResult r = student_t(stats[i], stats[0], pct, opt.ministat.exact_t);
    WelchResult w = welch_t(stats[i], stats[0], pct);
    MannWhitneyResult m = mann_whitney(samples[i].values, samples[0].values);
    EffectSize e = effect_size(stats[i], stats[0]);
    json paired = nullptr;
    if (opt.paired) {
      PairedResult pr = paired_t(samples[i].values, samples[0].values, pct);
      paired = {{"pairs", pr.n},
                {"df", pr.df},
                {"t", pr.t},
                {"difference", pr.diff},
                {"stddev", pr.sd},
                {"halfwidth", pr.halfwidth},
                {"percent", pr.pct},
                {"percent_halfwidth", pr.pct_halfwidth},
                {"t_statistic", pr.t_stat},
                {"p", pr.p},
                {"significant", pr.significant}};
    }
    cmp.push_back({{"sample", samples[i].name},
                   {"reference", samples[0].name},
                   {"student",
                    {{"df", r.df},
                     {"t", r.t},
                     {"difference", r.diff},
                     {"halfwidth", r.halfwidth},
                     {"percent", r.pct},
                     {"percent_halfwidth", r.pct_halfwidth},
                     {"pooled_s", r.pooled_s},
                     {"significant", r.significant}}},
                   {"welch",
                    {{"df", w.df},
                     {"t", w.t},
                     {"difference", w.diff},
                     {"halfwidth", w.halfwidth},
                     {"t_statistic", w.t_stat},
                     {"p", w.p},
                     {"significant", w.significant}}},
                   {"mann_whitney",
                    {{"u", m.u},
                     {"u1", m.u1},
                     {"u2", m.u2},
                     {"exact", m.exact},
                     {"z", m.z},
                     {"p", m.p},
                     {"min_p", m.min_p},
                     {"significant", m.p < 1 - pct / 100}}},
                   {"paired", paired},
                   {"effect_size",
                    {{"cohen_d", e.cohen_d},
                     {"hedges_g", e.hedges_g},
                     {"magnitude", magnitude(e.hedges_g)}}}});
  }
  doc["comparisons"] = cmp;
  doc["warnings"] = bstat_warnings(samples, opt);
  return doc.dump(2) + "\n";
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string bstat_csv(const std::vector<Sample>& samples, const BstatOptions& opt) {
  double pct = confidence_of(opt);
  std::string out =
      "name,n,min,max,median,mean,stddev,df,t,difference,halfwidth,percent,percent_halfwidth,"
      "pooled_s,significant\n";
  SampleStats ref = describe(samples[0].values);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    SampleStats s = describe(samples[i].values);
    out += fmt::format("{},{},{},{},{},{},{}", csv_field(samples[i].name), s.n,
                       format_number(s.min), format_number(s.max), format_number(s.median),
                       format_number(s.mean), format_number(s.stddev));
    if (i == 0) {
      out += ",,,,,,,,\n";
      continue;
    }
    StudentResult r = student_t(s, ref, pct, opt.ministat.exact_t);
    out += fmt::format(",{},{},{},{},{},{},{},{}\n", r.df, format_number(r.t),
                       format_number(r.diff), format_number(r.halfwidth), format_number(r.pct),
                       format_number(r.pct_halfwidth), format_number(r.pooled_s),
                       r.significant ? "yes" : "no");
  }
  return out;
}

}  // namespace dis::cost
