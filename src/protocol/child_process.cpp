#include "protocol/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <initializer_list>
#include <thread>

namespace acedrex::protocol {
namespace {

void closeAll(std::initializer_list<int> fds) {
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
}

// In the child: makes `fd` the descriptor `target`, without close-on-exec.
bool becomeFd(int fd, int target) {
  if (fd == target) return fcntl(fd, F_SETFD, 0) == 0;  // dup2 onto itself would keep the flag
  return dup2(fd, target) == target;
}

}  // namespace

Status ChildProcess::start(const std::string& path, const std::vector<std::string>& args) {
  if (pid_ > 0) return makeError("process", "already started");
  // Every end is close-on-exec: when several children start at once from
  // different threads, a child that inherited another one's pipe ends would
  // keep that child's input open after we close ours (so it never sees end
  // of file) and hold its output. The child's standard input and output are
  // dup2 copies, which do not carry the flag.
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return makeError("process", "pipe failed");
  if (pipe2(out, O_CLOEXEC) != 0) {
    closeAll({in[0], in[1]});
    return makeError("process", "pipe failed");
  }
  // The argument vector is built before fork: the child of a threaded
  // process may only make async-signal-safe calls until exec.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    closeAll({in[0], in[1], out[0], out[1]});
    return makeError("process", "fork failed");
  }
  if (pid == 0) {
    // Our four pipe ends close at exec.
    if (!becomeFd(in[0], STDIN_FILENO) || !becomeFd(out[1], STDOUT_FILENO)) _exit(127);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  closeAll({in[0], out[1]});
  pid_ = pid;
  toChild_ = in[1];
  fromChild_ = out[0];
  status_ = -1;
  buf_.clear();
  return okStatus();
}

bool ChildProcess::write(const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    if (toChild_ < 0) return false;
    const ssize_t n = ::write(toChild_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

void ChildProcess::closeInput() {
  closeAll({toChild_});
  toChild_ = -1;
}

void ChildProcess::closeOutput() {
  closeAll({fromChild_});
  fromChild_ = -1;
}

ChildProcess::Read ChildProcess::readLine(std::string* line, int timeoutMs) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (true) {
    if (const size_t nl = buf_.find('\n'); nl != std::string::npos) {
      *line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      if (!line->empty() && line->back() == '\r') line->pop_back();
      return Read::kLine;
    }
    if (fromChild_ < 0) {
      if (buf_.empty()) return Read::kEnd;
      *line = std::move(buf_);  // the last line, without its "\n"
      buf_.clear();
      return Read::kLine;
    }
    int wait = -1;
    if (timeoutMs >= 0) {
      wait = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
      if (wait <= 0) return Read::kTimeout;
    }
    pollfd p{fromChild_, POLLIN, 0};
    const int ready = poll(&p, 1, wait);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return Read::kTimeout;
    char chunk[4096];
    const ssize_t n = ready < 0 ? -1 : ::read(fromChild_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      closeOutput();
      continue;
    }
    buf_.append(chunk, static_cast<size_t>(n));
  }
}

std::string ChildProcess::readUntil(const std::string& prefix, int timeoutMs,
                                    const std::function<void(const std::string&)>& seen) {
  why_.clear();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  const std::string noAnswer = "no " + prefix + " within " + std::to_string(timeoutMs) + " ms";
  std::string line;
  while (true) {
    const int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    const Read r = readLine(&line, std::max(left, 0));
    if (r == Read::kTimeout) {
      why_ = noAnswer;
      return {};
    }
    if (r == Read::kEnd) {
      why_ = "its output closed before " + prefix + " (the engine exited?)";
      return {};
    }
    if (line.rfind(prefix, 0) == 0) return line;
    if (seen) seen(line);
  }
}

int ChildProcess::statusOf(int waitStatus) {
  if (WIFEXITED(waitStatus)) return WEXITSTATUS(waitStatus);
  if (WIFSIGNALED(waitStatus)) return 128 + WTERMSIG(waitStatus);
  return -1;
}

int ChildProcess::wait() {
  if (pid_ <= 0) return status_;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  status_ = statusOf(status);
  closeInput();
  closeOutput();
  return status_;
}

int ChildProcess::stop(const std::string& lastLine, int graceMs) {
  if (pid_ <= 0) return status_;
  if (!lastLine.empty()) writeLine(lastLine);
  closeInput();
  closeOutput();
  int status = 0;
  pid_t done = 0;
  for (int waited = 0; (done = waitpid(pid_, &status, WNOHANG)) == 0 && waited < graceMs; waited += 10)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (done == 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
  status_ = statusOf(status);
  return status_;
}

}  // namespace acedrex::protocol
