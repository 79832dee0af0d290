// A throwaway PostgreSQL cluster for the tests that need one: made by
// scripts/pg_temp.sh (initdb under an unprivileged user, a free port, the
// socket in a temporary directory), removed when the object goes.
#pragma once

#include <string>

namespace acedrex::server::testing {

class TempPostgres {
 public:
  TempPostgres();   // starts it; uri() empty when it could not
  ~TempPostgres();  // stops it and removes its directory
  TempPostgres(const TempPostgres&) = delete;
  TempPostgres& operator=(const TempPostgres&) = delete;

  // Whether the PostgreSQL binaries are installed (scripts/setup.sh installs them).
  static bool available();
  const std::string& uri() const { return uri_; }
  const std::string& error() const { return error_; }
  // Stops the server (the data stay) and starts it again on the same port.
  bool halt();
  bool resume();
  // Runs one SQL statement with psql; returns its output (unaligned, tuples only).
  std::string psql(const std::string& sql) const;

 private:
  std::string dir_, uri_, error_;
};

// HAProxy with deploy/haproxy.cfg on a free loopback port in front of two
// servers; stopped when the object goes.
class TempHaproxy {
 public:
  TempHaproxy(int server1Port, int server2Port);  // port() 0: it did not start
  ~TempHaproxy();
  TempHaproxy(const TempHaproxy&) = delete;
  TempHaproxy& operator=(const TempHaproxy&) = delete;
  static bool available();  // whether haproxy is installed
  int port() const { return port_; }

 private:
  int pid_ = -1;
  int port_ = 0;
};

}  // namespace acedrex::server::testing

// In a test: skips when the binaries are missing, fails when they are there
// but the cluster did not start.
#define ACEDREX_NEED_POSTGRES(pg)                                                                      \
  do {                                                                                                 \
    if (!::acedrex::server::testing::TempPostgres::available())                                        \
      GTEST_SKIP() << "PostgreSQL is not installed (initdb, pg_ctl): scripts/setup.sh installs it";   \
    ASSERT_FALSE((pg).uri().empty()) << "the temporary PostgreSQL cluster did not start: " << (pg).error(); \
  } while (false)
