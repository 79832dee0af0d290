// spawnServe (test_support.h): the binary under test as a child process.
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "test_support.h"

namespace acedrex::server::testing {

int spawnServe(const std::vector<std::string>& args, const ServeChildSetup& setup) {
  std::vector<std::string> all{ACEDREX_BINARY, "serve"};
  if (!setup.onlyArgs) all.insert(all.end(), {"--port", "0", "--address", "127.0.0.1"});
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // The child: only async-signal-safe calls until exec.
  if (setup.nofile > 0) {
    const rlimit rl{static_cast<rlim_t>(setup.nofile), static_cast<rlim_t>(setup.nofile)};
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  if (setup.noCore) {
    const rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);
  }
  if (setup.dieWithParent) prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (setup.stdoutFd >= 0) dup2(setup.stdoutFd, STDOUT_FILENO);
  if (setup.stderrFd >= 0) dup2(setup.stderrFd, STDERR_FILENO);
  if (!setup.cwd.empty() && chdir(setup.cwd.c_str()) != 0) _exit(126);
  execv(ACEDREX_BINARY, argv.data());
  _exit(127);
}

ServeProcess::ServeProcess(const std::string& db, const std::vector<std::string>& extra, int nofile,
                           const std::string& errFile) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return;
  const int errFd = errFile.empty() ? -1 : ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ServeChildSetup setup;
  setup.stdoutFd = out[1];
  setup.stderrFd = errFd;
  setup.nofile = nofile;
  setup.dieWithParent = true;  // a test that crashes leaves no server behind
  std::vector<std::string> args{"--db", db, "--threads", "2", "--bot-threads", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = spawnServe(args, setup);
  ::close(out[1]);
  if (errFd >= 0) ::close(errFd);
  FILE* f = fdopen(out[0], "r");
  char line[512];
  while (f && std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "port %d", &port_) == 1) break;
  }
  out_ = f;
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_) std::fclose(out_);
}

void ServeProcess::kill9() {
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void ServeProcess::terminate() {
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  pid_ = -1;
}

bool ServeProcess::alive() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }

}  // namespace acedrex::server::testing
