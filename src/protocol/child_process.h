// ChildProcess: a program run in a child process (no shell) with pipes to
// its standard input and output: write lines, read lines with a timeout, its
// exit status. The match command's UCI engines and the bench harness's
// Fairy-Stockfish run through it. The destructor ends a running child (see
// stop()). POSIX only.
//
// Threading contract: one object is used by one thread at a time; several
// objects may start children from different threads at once (every pipe end
// is close-on-exec, so no child inherits another's).
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "core/base/result.h"

namespace acedrex::protocol {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { stop(); }

  // Runs `path` (not searched in PATH) with `args` after its name. An error
  // when the pipes or the process cannot be made; a program that cannot be
  // executed starts and exits at once with status 127.
  Status start(const std::string& path, const std::vector<std::string>& args = {});
  bool started() const { return pid_ > 0; }

  // Writes `text` whole to the child's input; false when the input is closed
  // (the child exited: SIGPIPE is the caller's to ignore where it matters).
  bool write(const std::string& text);
  bool writeLine(const std::string& line) { return write(line + "\n"); }
  // Closes the child's input: it reads end of file.
  void closeInput();

  enum class Read { kLine, kTimeout, kEnd };
  // The next line of the child's output (without "\n" or a "\r" before it)
  // into *line: kLine; kTimeout after timeoutMs (<0: no limit); kEnd when the
  // output closed (a last line without "\n" is returned first as a kLine).
  Read readLine(std::string* line, int timeoutMs);
  // Reads lines until one starts with `prefix` and returns it; the lines
  // before it go to `seen` when given. "" on timeout or end of output, and
  // why() says which.
  std::string readUntil(const std::string& prefix, int timeoutMs,
                        const std::function<void(const std::string&)>& seen = {});
  // Why the last readUntil returned "".
  const std::string& why() const { return why_; }

  // Waits for the child to exit and returns its exit status: the code it
  // exited with, or 128 + the signal that ended it; -1 when none was started.
  int wait();
  // Ends the child: `lastLine` (e.g. "quit") is written when not empty, its
  // input and output are closed, it is given graceMs to exit, then killed
  // (SIGKILL). Returns the exit status as wait() does.
  int stop(const std::string& lastLine = "", int graceMs = 500);

 private:
  void closeOutput();
  static int statusOf(int waitStatus);

  pid_t pid_ = -1;
  int toChild_ = -1, fromChild_ = -1;
  std::string buf_;
  std::string why_;
  int status_ = -1;
};

}  // namespace acedrex::protocol
