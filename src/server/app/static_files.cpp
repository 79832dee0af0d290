#include "server/app/static_files.h"

#include <fstream>
#include <sstream>
#include <vector>

#include "server/app/embedded_web.h"
#include "server/app/http_util.h"

namespace acedrex::server {
namespace {

constexpr size_t kMaxTarget = 2048;
constexpr uintmax_t kMaxFileBytes = 16 * 1024 * 1024;

StaticReply refuse(int status, std::string code, std::string message) {
  StaticReply r;
  r.status = status;
  r.errorCode = std::move(code);
  r.errorMessage = std::move(message);
  return r;
}

// Whether `p` lies inside `root` (both canonical): equal prefixes segment by segment.
bool inside(const std::filesystem::path& root, const std::filesystem::path& p) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q)
    if (q == p.end() || *r != *q) return false;
  return q != p.end();
}

}  // namespace

std::string mimeType(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  if (ext == "html" || ext == "htm") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json" || ext == "map") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "ico") return "image/x-icon";
  if (ext == "woff2") return "font/woff2";
  if (ext == "txt" || ext == "md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

WebRoot WebRoot::embedded() {
  WebRoot w;
  for (const auto& [path, bytes] : embeddedWebFiles())
    w.files_.emplace(std::string(path), std::make_shared<const std::string>(bytes));
  return w;
}

Result<WebRoot> WebRoot::directory(const std::filesystem::path& dir) {
  std::error_code ec;
  auto canon = std::filesystem::canonical(dir, ec);
  if (ec || !std::filesystem::is_directory(canon, ec))
    return makeError("web", "the web folder \"" + dir.string() + "\" does not exist");
  WebRoot w;
  w.dir_ = canon;
  return w;
}

std::string WebRoot::describe() const { return dir_.empty() ? "embedded" : dir_.string(); }

std::shared_ptr<const std::string> WebRoot::lookup(const std::string& rel) const {
  if (dir_.empty()) {
    auto it = files_.find(rel);
    return it == files_.end() ? nullptr : it->second;
  }
  std::error_code ec;
  const auto file = std::filesystem::weakly_canonical(dir_ / rel, ec);
  if (ec || !inside(dir_, file)) return nullptr;
  if (!std::filesystem::is_regular_file(file, ec) || ec) return nullptr;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec || size > kMaxFileBytes) return nullptr;
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream buf;
  buf << in.rdbuf();
  return std::make_shared<const std::string>(buf.str());
}

StaticReply WebRoot::get(std::string_view target) const {
  if (target.size() > kMaxTarget) return refuse(414, "too-long", "the URL is too long");
  if (target.empty() || target.front() != '/') return refuse(400, "bad-target", "the path must start with /");
  const std::string_view rawPath = target.substr(0, target.find('?'));
  // 1. Decode the whole path, then validate what it decoded to.
  std::string path;
  if (!urlDecode(rawPath, path, false)) return refuse(400, "bad-target", "malformed %-escape in the URL");
  for (const char c : path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\')
      return refuse(400, "bad-target", "bad character in the path");
  // 2. Split the decoded path; "." and ".." are refused, empty segments dropped.
  std::vector<std::string> segments;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) {
      std::string seg = path.substr(i, j - i);
      if (seg == "." || seg == "..") return refuse(400, "bad-target", "bad path");
      segments.push_back(std::move(seg));
    }
    i = j + 1;
  }
  if (!segments.empty() && segments.front() == "ws")
    return refuse(426, "upgrade", "this is a WebSocket address");
  // Hidden files (".git", ".env") are never served.
  for (const auto& s : segments)
    if (s.front() == '.') return refuse(404, "not-found", "no such file");
  // 3. The file itself, or the directory's index.html, or the page that serves the path.
  std::string rel;
  for (const auto& s : segments) rel += (rel.empty() ? "" : "/") + s;
  std::shared_ptr<const std::string> body;
  std::string served;
  auto attempt = [&](const std::string& candidate) {
    if (body) return;
    if ((body = lookup(candidate))) served = candidate;
  };
  if (!rel.empty()) attempt(rel);
  attempt(rel.empty() ? "index.html" : rel + "/index.html");
  if (!body && segments.size() >= 2 && segments.back().find('.') == std::string::npos)
    attempt(segments.front() + ".html");
  if (!body) {
    if (segments.empty()) {
      StaticReply r;
      r.contentType = "text/html; charset=utf-8";
      r.body = std::make_shared<const std::string>(
          "<!doctype html><title>Acedrex</title><p>The Acedrex server is running, but its web page was not found. "
          "The API is at <a href=\"/api/variants\">/api/variants</a>.");
      return r;
    }
    return refuse(404, "not-found", "no such file");
  }
  StaticReply r;
  r.contentType = mimeType(served);
  r.body = std::move(body);
  return r;
}

}  // namespace acedrex::server
