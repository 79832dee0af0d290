// acedrex-tune: extract training positions from PGN records and tune the
// evaluation parameters on them (Texel method). See docs/tuning.md.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tune/tuner.h"

namespace {

using namespace acedrex;

const char* kUsage =
    "usage: acedrex-tune COMMAND [options]\n"
    "  extract --variant V [--skip-plies 8] [--all] --out DATA PGN...\n"
    "      quiet positions of V's games with the results from White's view, one \"POSITION ; RESULT\" a line\n"
    "  tune --variant V [--option k=v]... --data DATA [--params FILE] [--out FILE] [--k K]\n"
    "       [--passes 100] [--max-step 32] [--threads 1] [--freeze NAME,...]\n"
    "      fit k, then the Texel local search; writes the tuned parameters (default: to stdout)\n"
    "  error --variant V [--option k=v]... --data DATA [--params FILE] [--k K]\n"
    "      the fitted k and the mean squared error of the parameters\n"
    "common: --variants DIR loads more variant files\n";

struct Args {
  std::string command;
  std::map<std::string, std::string> values;
  std::vector<std::string> options;
  std::vector<std::string> positional;
  bool all = false;
};

int fail(const std::string& msg) {
  std::cerr << "acedrex-tune: " << msg << "\n";
  return 2;
}

Result<Args> parseArgs(int argc, char** argv) {
  Args a;
  if (argc < 2) return makeError("usage", "no command");
  a.command = argv[1];
  static const char* known[] = {"variant", "option", "variants", "skip-plies", "out",     "data",
                                "params",  "k",      "passes",   "max-step",   "threads", "freeze"};
  for (int i = 2; i < argc; ++i) {
    const std::string t = argv[i];
    if (t == "--all") {
      a.all = true;
      continue;
    }
    if (t.rfind("--", 0) != 0) {
      a.positional.push_back(t);
      continue;
    }
    std::string key = t.substr(2), val;
    if (const size_t eq = key.find('='); eq != std::string::npos) {
      val = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else {
      if (i + 1 >= argc) return makeError("usage", "--" + key + " needs a value");
      val = argv[++i];
    }
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) return makeError("usage", "unknown flag --" + key);
    if (key == "option") a.options.push_back(val);
    else a.values[key] = val;
  }
  return a;
}

Result<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("io", "cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Status writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text)) return makeError("io", "cannot write " + path);
  return okStatus();
}

Result<long> number(const Args& a, const std::string& key, long def, long lo, long hi) {
  if (!a.values.count(key)) return def;
  const std::string& v = a.values.at(key);
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || x < lo || x > hi)
    return makeError("usage", "--" + key + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return x;
}

Result<VariantRegistry> registryFor(const Args& a) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (a.values.count("variants"))
    if (auto s = reg.loadDirectory(a.values.at("variants")); !s.ok()) return s.error();
  if (!a.values.count("variant")) return makeError("usage", "--variant is required");
  return reg;
}

int cmdExtract(const Args& a) {
  auto reg = registryFor(a);
  if (!reg.ok()) return fail(reg.error().text());
  if (!a.values.count("out")) return fail("--out DATA is required");
  if (a.positional.empty()) return fail("give one or more PGN files");
  auto skip = number(a, "skip-plies", 8, 0, 10000);
  if (!skip.ok()) return fail(skip.error().text());
  tune::ExtractOptions opt;
  opt.skipPlies = static_cast<int>(*skip);
  opt.quietOnly = !a.all;
  std::vector<PgnGame> games;
  for (const auto& path : a.positional) {
    auto text = readFile(path);
    if (!text.ok()) return fail(text.error().text());
    auto g = readPgn(*text, path);
    if (!g.ok()) return fail(g.error().text());
    games.insert(games.end(), g->begin(), g->end());
  }
  const std::string variant = a.values.at("variant");
  tune::ExtractStats st;
  const auto samples = tune::extractSamples(*reg, variant, games, opt, st);
  for (const auto& w : st.warnings) std::cerr << "skipped " << w << "\n";
  std::ostringstream header;
  header << "acedrex-tune extract: variant " << variant << ", " << st.gamesUsed << " games, skip-plies "
         << opt.skipPlies << (opt.quietOnly ? ", quiet positions" : ", all positions") << "\n"
         << "POSITION ; RESULT, the result from White's (seat 0's) view: 1 win, 0.5 draw, 0 loss";
  if (auto s = writeFile(a.values.at("out"), tune::formatSamples(samples, header.str())); !s.ok())
    return fail(s.error().text());
  std::cout << "games " << st.games << ", used " << st.gamesUsed << ", skipped " << st.gamesSkipped << "\n"
            << "positions " << st.positions << ": before ply " << opt.skipPlies << " " << st.early << ", game over "
            << st.finished << ", in check " << st.inCheck << ", after a capture or promotion " << st.afterCapture
            << ", winning capture " << st.winningCapture << ", duplicates " << st.duplicates << ", kept " << st.kept
            << "\n";
  return 0;
}

struct TuneSetup {
  std::shared_ptr<const Rules> rules;
  engine::EvalParams params;
  tune::Dataset data;
};

Result<TuneSetup> tuneSetup(const Args& a) {
  auto reg = registryFor(a);
  if (!reg.ok()) return reg.error();
  auto rules = reg->rules(a.values.at("variant"), a.options);
  if (!rules.ok()) return rules.error();
  if (!a.values.count("data")) return makeError("usage", "--data DATA is required");
  engine::EvalParams params = engine::defaultEvalParams(**rules);
  if (a.values.count("params")) {
    auto text = readFile(a.values.at("params"));
    if (!text.ok()) return text.error();
    auto p = engine::parseEvalParams(*text);
    if (!p.ok()) return makeError("params", p.error().text(), a.values.at("params"));
    params = *p;
  }
  auto text = readFile(a.values.at("data"));
  if (!text.ok()) return text.error();
  auto samples = tune::parseSamples(*text, a.values.at("data"));
  if (!samples.ok()) return samples.error();
  if (samples->empty()) return makeError("data", "no positions in " + a.values.at("data"));
  auto data = tune::Dataset::build(*rules, *samples, a.values.at("data"));
  if (!data.ok()) return data.error();
  return TuneSetup{*rules, params, std::move(*data)};
}

Result<double> kValue(const Args& a) {
  if (!a.values.count("k")) return 0.0;
  char* end = nullptr;
  const double k = std::strtod(a.values.at("k").c_str(), &end);
  if (*end || !(k > 0)) return makeError("usage", "--k must be a positive number");
  return k;
}

int cmdError(const Args& a) {
  auto setup = tuneSetup(a);
  if (!setup.ok()) return fail(setup.error().text());
  auto kv = kValue(a);
  if (!kv.ok()) return fail(kv.error().text());
  const engine::Evaluator ev(setup->rules, setup->params);
  auto threads = number(a, "threads", 1, 1, 64);
  if (!threads.ok()) return fail(threads.error().text());
  const auto evals = setup->data.whiteEvals(ev, static_cast<int>(*threads));
  const double k = *kv > 0 ? *kv : tune::fitK(setup->data, evals);
  std::cout << "positions " << setup->data.size() << ", k " << std::setprecision(6) << k << ", error "
            << std::setprecision(8) << setup->data.error(evals, k) << "\n";
  return 0;
}

int cmdTune(const Args& a) {
  auto setup = tuneSetup(a);
  if (!setup.ok()) return fail(setup.error().text());
  auto kv = kValue(a);
  auto passes = number(a, "passes", 100, 1, 100000);
  auto maxStep = number(a, "max-step", 32, 1, 10000);
  auto threads = number(a, "threads", 1, 1, 64);
  if (!kv.ok()) return fail(kv.error().text());
  for (const auto* r : {&passes, &maxStep, &threads})
    if (!r->ok()) return fail(r->error().text());
  tune::TuneOptions opt;
  opt.k = *kv;
  opt.maxPasses = static_cast<int>(*passes);
  opt.maxStep = static_cast<int>(*maxStep);
  opt.threads = static_cast<int>(*threads);
  opt.log = &std::cerr;
  if (a.values.count("freeze")) {
    std::istringstream in(a.values.at("freeze"));
    for (std::string f; std::getline(in, f, ',');)
      if (!f.empty()) opt.freeze.push_back(f);
  }
  const std::string variant = a.values.at("variant");
  const engine::EvalParams before = setup->params;
  const auto names = tune::tunableNames(before, variant);
  engine::EvalParams params = setup->params;
  const auto report = tune::tune(setup->data, params, opt);
  // What changed.
  engine::EvalParams b = before, p = params;
  const auto pb = b.tunables(), pp = p.tunables();
  for (size_t i = 0; i < pp.size() && i < pb.size(); ++i)
    if (*pb[i] != *pp[i]) std::cerr << "  " << names[i] << ": " << *pb[i] << " -> " << *pp[i] << "\n";
  std::cerr << "k " << std::setprecision(6) << report.k << ", error " << std::setprecision(8) << report.errorBefore
            << " -> " << report.errorAfter << " after " << report.passes << " passes (" << report.trials
            << " trials" << (report.converged ? ", converged" : ", pass limit") << ")\n";
  const std::string text = params.toText(variant);
  if (a.values.count("out")) {
    if (auto s = writeFile(a.values.at("out"), text); !s.ok()) return fail(s.error().text());
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (std::string(argv[1]) == "help" || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  auto args = parseArgs(argc, argv);
  if (!args.ok()) return fail(args.error().text() + "\n" + kUsage);
  const std::string& c = args->command;
  if (c == "extract") return cmdExtract(*args);
  if (c == "tune") return cmdTune(*args);
  if (c == "error") return cmdError(*args);
  return fail("unknown command \"" + c + "\"\n" + kUsage);
}
