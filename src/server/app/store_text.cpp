// The text forms of seats, options and clocks shared by the SQL stores.
#include <cstdlib>

#include "server/app/json.h"
#include "server/app/store.h"

namespace acedrex::server {

std::string seatsToJson(const std::vector<SeatPlan>& seats) {
  JsonWriter w;
  w.beginArray();
  for (const auto& s : seats)
  {
    w.beginObject().key("bot").value(s.bot).key("level").value(s.level).key("token").value(s.token);
    if (s.open) w.key("open").value(true);  // only while free, so older records read the same
    if (!s.name.empty()) w.key("name").value(s.name).key("account").value(s.account);  // only when named, likewise
    if (s.rated) w.key("rated").value(true);
    if (s.rating > 0) w.key("rating").value(s.rating).key("provisional").value(s.provisional);
    w.endObject();
  }
  w.endArray();
  return w.take();
}

std::vector<SeatPlan> seatsFromJson(const std::string& text) {
  std::vector<SeatPlan> out;
  auto j = parseJson(text);
  if (!j.ok() || !j->isArray()) return out;
  for (const auto& s : j->items()) {
    SeatPlan p;
    if (const Json* b = s.get("bot"); b && b->isBool()) p.bot = b->asBool();
    if (const Json* l = s.get("level"); l && l->isInteger(0, 100)) p.level = static_cast<int>(l->asNumber());
    if (const Json* t = s.get("token"); t && t->isString()) p.token = t->asString();
    if (const Json* o = s.get("open"); o && o->isBool()) p.open = o->asBool();
    if (const Json* n = s.get("name"); n && n->isString()) p.name = n->asString();
    if (const Json* a = s.get("account"); a && a->isBool()) p.account = a->asBool();
    if (const Json* r = s.get("rated"); r && r->isBool()) p.rated = r->asBool();
    if (const Json* r = s.get("rating"); r && r->isInteger(0, 100000)) p.rating = static_cast<int>(r->asNumber());
    if (const Json* r = s.get("provisional"); r && r->isBool()) p.provisional = r->asBool();
    out.push_back(p);
  }
  return out;
}

std::string optionsToJson(const std::map<std::string, std::string>& o) {
  JsonWriter w;
  w.beginObject();
  for (const auto& [k, v] : o) w.key(k).value(v);
  w.endObject();
  return w.take();
}

std::map<std::string, std::string> optionsFromJson(const std::string& text) {
  std::map<std::string, std::string> out;
  auto j = parseJson(text);
  if (!j.ok() || !j->isObject()) return out;
  for (const auto& [k, v] : j->members())
    if (v.isString()) out[k] = v.asString();
  return out;
}

std::string clocksToText(const std::vector<int64_t>& c) {
  std::string s;
  for (size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return s;
}

std::vector<int64_t> clocksFromText(const std::string& s) {
  std::vector<int64_t> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    out.push_back(std::strtoll(s.substr(i, j - i).c_str(), nullptr, 10));
    i = j + 1;
  }
  return out;
}

}  // namespace acedrex::server
