#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/download/http_headers.hpp"
#include "wdl/util/error.hpp"

namespace wdl::download {

struct HttpOptions {
    std::chrono::seconds connect_timeout{30};
    // A transfer slower than one byte per second for this long is abandoned (a stalled server).
    std::chrono::seconds stall_timeout{60};
    // Retries of a request after a transient failure: at most max_retries + 1 attempts.
    int max_retries = 3;
    // Wait before the first retry; each further retry waits twice as long, up to
    // max_retry_delay (a longer first wait is kept as it is).
    std::chrono::milliseconds first_retry_delay{2000};
    std::chrono::milliseconds max_retry_delay{60000};
    // Minimum time between the start of two requests, to be kind to the server.
    std::chrono::milliseconds pause_between_requests{100};
    // The longest wait a server's Retry-After (or RateLimit) is granted; a longer one is cut
    // to this, so that a confused server cannot park the client for a day.
    std::chrono::seconds max_requested_wait{600};
};

// What a request asks beyond a plain GET.
struct RequestOptions {
    std::vector<std::string> headers;  // "Name: value", sent as given
    bool head_only = false;            // HEAD instead of GET
    // Off: a 3xx is answered as it is, its Location in the head, for a caller that decides
    // which credentials go to the next host.
    bool follow_redirects = true;
    std::uint64_t range_from = 0;  // above 0: "Range: bytes=N-"
};

// Receives a response's head once, before any of its body.
using HeadCallback = std::function<void(const ResponseHead&)>;
using BodySink = std::function<void(std::string_view bytes)>;

class HttpError : public Error {
  public:
    HttpError(const std::string& what, bool transient,
              std::optional<std::chrono::seconds> requested_wait = std::nullopt)
        : Error(what), transient_(transient), requested_wait_(requested_wait) {}
    // Worth retrying: the same request may well succeed later.
    bool transient() const { return transient_; }
    // How long the server asked us to wait before retrying (429 or 503 with Retry-After).
    std::optional<std::chrono::seconds> requested_wait() const { return requested_wait_; }

  private:
    bool transient_;
    std::optional<std::chrono::seconds> requested_wait_;
};

// Called with the bytes received so far by the running transfer.
using ProgressCallback = std::function<void(std::uint64_t bytes_received)>;

// How one attempt of a request went, for detailed logs.
struct AttemptReport {
    std::string_view url;
    int attempt = 1;           // 1 for the first attempt of the request
    long status = 0;           // the HTTP status, 0 if no answer arrived
    std::uint64_t bytes = 0;   // body bytes received
    std::string_view failure;  // why the attempt failed; empty if it succeeded
    // The wait before the next attempt, if the request is retried.
    std::optional<std::chrono::milliseconds> retry_in;
};

using AttemptObserver = std::function<void(const AttemptReport&)>;

// Inspects a complete body, saved in a temporary file, before it gets its final name: why it
// is unusable, or nothing.
using BodyCheck = std::function<std::optional<std::string>(const std::filesystem::path& body_file)>;

// A blocking HTTP(S) client over libcurl that retries transient failures (connection errors,
// timeouts, truncated bodies, HTTP 5xx and 429) with exponential backoff.
class HttpClient {
  public:
    explicit HttpClient(HttpOptions options = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // The body of a successful (2xx) response; throws HttpError otherwise. `head`, if given,
    // receives the response's status and headers.
    std::string get(const std::string& url, const RequestOptions& request = {},
                    ResponseHead* head = nullptr);

    // One attempt of a request, not retried, whatever the status: the head goes to `on_head`
    // (then the body to `body`) and is returned. Throws HttpError only when no complete
    // response arrived (transient for resets, timeouts and stalls); for callers that resume
    // and redirect themselves. A 429's wait is the caller's to honour (requested_wait()).
    ResponseHead send(const std::string& url, const RequestOptions& request,
                      const HeadCallback& on_head, const BodySink& body,
                      const ProgressCallback& progress = {});

    // Streams the body into `target` through a temporary file that is renamed only once the
    // whole body has arrived and passed `check`, so an interrupted download never leaves a file
    // under `target`. A body that `check` rejects is a transient failure: servers do answer an
    // error page with 200, or cut a body without a Content-Length short. Returns the number of
    // bytes written; throws HttpError.
    std::uint64_t get_to_file(const std::string& url, const std::filesystem::path& target,
                              const ProgressCallback& progress = {}, const BodyCheck& check = {});

    // The wait before retry number `retry` (1 for the first) after `error`: the server's
    // requested wait if it asked for one (up to max_requested_wait), else the backoff.
    std::chrono::milliseconds retry_delay(int retry, const HttpError& error) const;
    const HttpOptions& options() const { return options_; }

    // Called after every attempt of every request; an empty observer stops the reports.
    void set_attempt_observer(AttemptObserver observer) { observer_ = std::move(observer); }

  private:
    struct Handle;
    template <typename Attempt>
    auto with_retries(const std::string& url, Attempt attempt) -> decltype(attempt());
    void pause_before_request();

    HttpOptions options_;
    AttemptObserver observer_;
    std::unique_ptr<Handle> handle_;
    std::chrono::steady_clock::time_point last_request_start_{};
};

}  // namespace wdl::download
