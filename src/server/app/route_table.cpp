#include "server/app/route_table.h"

#include "server/app/json.h"

namespace acedrex::server {

ApiResponse errorResponse(int status, const std::string& code, const std::string& message) {
  ApiResponse r;
  r.status = status;
  JsonWriter w;
  w.beginObject().key("error").value(message).key("code").value(code).endObject();
  r.body = w.take();
  return r;
}

ApiResponse errorResponse(const ApiError& e) {
  ApiResponse r;
  r.status = e.status;
  r.retryAfterMs = e.retryAfterMs;
  JsonWriter w;
  w.beginObject().key("error").value(e.message).key("code").value(e.code);
  if (e.retryAfterMs > 0) w.key("retryAfterMs").value(e.retryAfterMs);
  w.endObject();
  r.body = w.take();
  return r;
}

ApiResponse jsonResponse(std::string body) {
  ApiResponse r;
  r.body = std::move(body);
  return r;
}

const std::string& RouteContext::param(const std::string& name) const {
  static const std::string kNone;
  auto it = params.find(name);
  return it == params.end() ? kNone : it->second;
}

std::string RouteContext::query(const std::string& name) const {
  auto it = target.query.find(name);
  return it == target.query.end() ? std::string() : it->second;
}

RouteTable::Pattern RouteTable::Pattern::parse(const std::string& text) {
  Pattern p;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '/') {
      ++i;
      continue;
    }
    const size_t end = text.find('/', i);
    p.segments.push_back(text.substr(i, end == std::string::npos ? std::string::npos : end - i));
    if (end == std::string::npos) break;
    i = end;
  }
  if (!p.segments.empty() && p.segments.back() == "**") {
    p.segments.pop_back();
    p.below = true;
  }
  return p;
}

bool RouteTable::Pattern::matches(const std::vector<std::string>& path,
                                  std::map<std::string, std::string>* params) const {
  if (below ? path.size() < segments.size() : path.size() != segments.size()) return false;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& s = segments[i];
    const bool param = s.size() > 2 && s.front() == '{' && s.back() == '}';
    if (!param && s != path[i]) return false;
  }
  if (params)
    for (size_t i = 0; i < segments.size(); ++i) {
      const std::string& s = segments[i];
      if (s.size() > 2 && s.front() == '{' && s.back() == '}') (*params)[s.substr(1, s.size() - 2)] = path[i];
    }
  return true;
}

void RouteTable::add(std::string method, const std::string& pattern, RouteHandler handler, std::string refusal) {
  if (refusal.empty()) refusal = "use " + method;
  routes_.push_back(Route{std::move(method), Pattern::parse(pattern), std::move(handler), std::move(refusal)});
}

void RouteTable::filter(const std::string& pattern, RouteFilter filter) {
  filters_.push_back(Filter{Pattern::parse(pattern), std::move(filter)});
}

ApiResponse RouteTable::dispatch(RouteContext& c) const {
  const auto& path = c.target.segments;
  for (const Filter& f : filters_) {
    if (!f.pattern.matches(path, &c.params)) continue;
    if (auto passed = f.run(c); !passed.ok()) return errorResponse(passed.error());
  }
  const std::string& method = c.request.method;
  const Route* refusing = nullptr;
  for (const Route& r : routes_) {
    if (!r.pattern.matches(path, nullptr)) continue;
    if (r.method == "*" || r.method == method || (r.method == "GET" && method == "HEAD")) {
      r.pattern.matches(path, &c.params);
      return r.handler(c);
    }
    if (!refusing) refusing = &r;
  }
  if (refusing) return errorResponse(405, "method", refusing->refusal);
  return errorResponse(404, "not-found", "no such API path");
}

}  // namespace acedrex::server
