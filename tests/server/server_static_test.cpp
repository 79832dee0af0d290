// WebRoot: decode first, then validate; nothing outside the root is served,
// whatever the escapes, dots, slashes or links; the embedded front end serves
// the lobby without any folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "server/app/static_files.h"

namespace acedrex::server {
namespace {

namespace fs = std::filesystem;

class WebFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    top_ = fs::temp_directory_path() / ("acedrex-static-" + std::to_string(getpid()));
    fs::remove_all(top_);
    fs::create_directories(top_ / "web" / "js");
    fs::create_directories(top_ / "web" / "sub");
    std::ofstream(top_ / "web" / "index.html") << "INDEX";
    std::ofstream(top_ / "web" / "game.html") << "GAMEPAGE";
    std::ofstream(top_ / "web" / "js" / "app.js") << "APPJS";
    std::ofstream(top_ / "web" / "sub" / "index.html") << "SUBINDEX";
    std::ofstream(top_ / "web" / ".env") << "HIDDEN";
    std::ofstream(top_ / "secret.txt") << "SECRET";
    std::ofstream(top_ / "acedrex.db") << "SQLite format 3";
    fs::create_symlink(top_ / "secret.txt", top_ / "web" / "link.txt");
    fs::create_symlink(top_, top_ / "web" / "up");
    auto root = WebRoot::directory(top_ / "web");
    ASSERT_TRUE(root.ok());
    root_.emplace(std::move(*root));
  }
  void TearDown() override { fs::remove_all(top_); }
  std::string body(const StaticReply& r) { return r.body ? *r.body : std::string(); }

  fs::path top_;
  std::optional<WebRoot> root_;
};

TEST_F(WebFolder, ServesFilesAndPages) {
  EXPECT_EQ(body(root_->get("/")), "INDEX");
  EXPECT_EQ(body(root_->get("/index.html?x=1")), "INDEX");
  EXPECT_EQ(body(root_->get("/js/app.js")), "APPJS");
  EXPECT_EQ(root_->get("/js/app.js").contentType, "text/javascript; charset=utf-8");
  EXPECT_EQ(body(root_->get("/js/%61pp.js")), "APPJS");  // an escaped letter is the letter
  EXPECT_EQ(body(root_->get("/sub")), "SUBINDEX");
  EXPECT_EQ(body(root_->get("/game/abc123")), "GAMEPAGE");  // front-end pages
  EXPECT_EQ(root_->get("/nothing.js").status, 404);
  EXPECT_EQ(root_->get("/nothing").status, 404);
  EXPECT_EQ(root_->get("/js/nothing/deeper").status, 404);
  EXPECT_EQ(root_->get("/ws/game/x").status, 426);
}

TEST_F(WebFolder, NothingOutsideTheRootLeaves) {
  const char* attacks[] = {
      "/%2Fetc%2Fpasswd", "/%2fetc%2fpasswd", "//etc/passwd", "/..%2Fsecret.txt", "/..%2facedrex.db",
      "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/js/..%2F..%2Fsecret.txt", "/js/%2e%2e/%2e%2e/secret.txt",
      "/./../secret.txt", "/../secret.txt", "/..\\secret.txt", "/..%5csecret.txt", "/%252e%252e/secret.txt",
      "/secret.txt%00.js", "/%00", "/link.txt", "/up/secret.txt", "/up/acedrex.db", "/.env", "/%2eenv",
      "/game/%2F..%2F..%2Fsecret.txt", "/sub/../../secret.txt", "/js/app.js/..%2f..%2f..%2fsecret.txt",
      "/%", "/%zz", "/%2", "secret.txt", "", "*", "http://x/../secret.txt"};
  for (const char* target : attacks) {
    const StaticReply r = root_->get(target);
    const std::string b = body(r);
    EXPECT_EQ(b.find("SECRET"), std::string::npos) << target;
    EXPECT_EQ(b.find("SQLite"), std::string::npos) << target;
    EXPECT_EQ(b.find("HIDDEN"), std::string::npos) << target;
    EXPECT_EQ(b.find("root:"), std::string::npos) << target;
    EXPECT_TRUE(r.status == 400 || r.status == 404 || r.status == 414) << target << " -> " << r.status;
  }
  EXPECT_EQ(root_->get("/" + std::string(5000, 'a')).status, 414);
}

TEST(WebRoot, AMissingFolderIsAnErrorNotACrash) {
  EXPECT_FALSE(WebRoot::directory("/nonexistent-acedrex-web").ok());
}

TEST(WebRoot, TheEmbeddedFrontEndServesTheLobbyFromAnywhere) {
  const WebRoot root = WebRoot::embedded();
  EXPECT_EQ(root.describe(), "embedded");
  const StaticReply index = root.get("/");
  ASSERT_EQ(index.status, 200);
  EXPECT_NE(index.body->find("<!doctype html>"), std::string::npos);
  EXPECT_EQ(index.contentType, "text/html; charset=utf-8");
  // Every file of web/ is there, byte for byte.
  for (const auto& entry : fs::recursive_directory_iterator(ACEDREX_SOURCE_DIR "/web")) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), ACEDREX_SOURCE_DIR "/web").generic_string();
    if (rel.front() == '.' || rel.find("/.") != std::string::npos) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const StaticReply r = root.get("/" + rel);
    ASSERT_EQ(r.status, 200) << rel;
    EXPECT_EQ(*r.body, want) << rel;
  }
  EXPECT_EQ(root.get("/game/abc").status, 200);
  EXPECT_EQ(root.get("/..%2Facedrex.db").status, 400);
  EXPECT_EQ(root.get("/%2Fetc%2Fpasswd").status, 404);
}

}  // namespace
}  // namespace acedrex::server
