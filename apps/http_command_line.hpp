#pragma once
// The request options both download programs share (--retries, --retry_delay, --pause,
// --timeout), with the defaults each program's original used.

#include <CLI/CLI.hpp>
#include <chrono>

#include "number_checks.hpp"
#include "wdl/download/http_client.hpp"

class HttpCommandLine {
  public:
    // The options are bound to this object: it must outlive the parsing of `app`.
    HttpCommandLine(CLI::App& app, double retry_delay_seconds, long stall_seconds)
        : retry_delay_seconds_(retry_delay_seconds), stall_seconds_(stall_seconds) {
        app.add_option("--pause", pause_seconds_,
                       "Seconds to wait between two requests to the server.")
            ->check(number_checks::non_negative());
        app.add_option("--retries", max_retries_,
                       "Retries of a request after a transient failure (0: try once only).")
            ->check(number_checks::non_negative());
        app.add_option("--retry_delay", retry_delay_seconds_,
                       "Seconds before the first retry; each further retry waits twice as long, "
                       "up to 60 s.")
            ->check(number_checks::non_negative());
        app.add_option("--timeout", stall_seconds_,
                       "Abandon (and retry) a transfer that receives nothing for this many "
                       "seconds.")
            ->check(number_checks::positive());
    }

    wdl::download::HttpOptions options() const {
        wdl::download::HttpOptions http;
        http.max_retries = max_retries_;
        http.pause_between_requests = std::chrono::milliseconds(long(pause_seconds_ * 1000));
        http.first_retry_delay = std::chrono::milliseconds(long(retry_delay_seconds_ * 1000));
        http.stall_timeout = std::chrono::seconds(stall_seconds_);
        return http;
    }

  private:
    double pause_seconds_ = 0.1;
    int max_retries_ = wdl::download::HttpOptions{}.max_retries;
    double retry_delay_seconds_;
    long stall_seconds_;
};
