#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace wdl::testing {

struct Request {
    std::string path;                               // without the query
    std::map<std::string, std::string> parameters;  // the query, not decoded
    std::string method = "GET";
    std::map<std::string, std::string> headers;  // names in lower case
    std::string target;                          // the path with its query, as sent

    std::string header(const std::string& name) const {
        auto found = headers.find(name);
        return found == headers.end() ? std::string() : found->second;
    }
};

struct Response {
    Response() = default;
    Response(int status_, std::string body_, std::optional<std::size_t> close_after_bytes_ = {},
             std::optional<std::size_t> stall_after_bytes_ = {})
        : status(status_),
          body(std::move(body_)),
          close_after_bytes(close_after_bytes_),
          stall_after_bytes(stall_after_bytes_) {}

    int status = 200;
    std::string body;
    // Close the connection after this many bytes of the body (announced whole unless
    // close_delimited).
    std::optional<std::size_t> close_after_bytes;
    // Send this many bytes of the body, then hang until the server is destroyed.
    std::optional<std::size_t> stall_after_bytes;
    // Send no Content-Length: the body ends where the connection closes, so a client cannot
    // tell a body cut short by close_after_bytes from a complete one.
    bool close_delimited = false;
    // Further headers, "Name", "value" (Content-Length and Connection are the server's).
    std::vector<std::pair<std::string, std::string>> headers;
};

// An HTTP/1.1 server on 127.0.0.1 (ephemeral port) for tests: one thread per connection,
// one request per connection, answers from a handler that may script failures. A HEAD is
// answered with the head the handler's GET answer would have.
class LocalHttpServer {
  public:
    using Handler = std::function<Response(const Request&)>;

    explicit LocalHttpServer(Handler handler);
    ~LocalHttpServer();
    LocalHttpServer(const LocalHttpServer&) = delete;
    LocalHttpServer& operator=(const LocalHttpServer&) = delete;

    std::string url() const;
    std::vector<Request> requests() const;
    void clear_requests();
    // Waits until some response has stalled (see Response::stall_after_bytes).
    bool wait_for_stall(std::chrono::milliseconds limit);

  private:
    void accept_connections();
    void serve(int connection);
    void send_response(int connection, const Response& response);

    Handler handler_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::condition_variable stalled_;
    int stalled_count_ = 0;
    std::vector<Request> requests_;
    std::vector<std::thread> connections_;
    std::thread acceptor_;
};

}  // namespace wdl::testing
