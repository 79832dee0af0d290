// spawnServe (test_support.h): the binary under test as a child process.
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include "test_support.h"

namespace acedrex::server::testing {

int spawnServe(const std::vector<std::string>& args, const ServeChildSetup& setup) {
  std::vector<std::string> all{ACEDREX_BINARY, "serve", "--port", "0", "--address", "127.0.0.1"};
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
  execv(ACEDREX_BINARY, argv.data());
  _exit(127);
}

}  // namespace acedrex::server::testing
