#include "core/load/request_head.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {
namespace {

bool sameHeaderName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

HttpTarget parseHttpTarget(const std::string& url) {
  CURLU* handle = curl_url();
  if (!handle) throw Error("libcurl could not parse the endpoint URL (out of memory?)");
  const CURLUcode code = curl_url_set(handle, CURLUPART_URL, url.c_str(), 0);
  if (code != CURLUE_OK) {
    curl_url_cleanup(handle);
    throw MessageError({MessageText::LoadEndpointInvalid, {url, std::string(curl_url_strerror(code))}});
  }
  auto part = [handle](CURLUPart which) {
    char* value = nullptr;
    if (curl_url_get(handle, which, &value, 0) != CURLUE_OK || !value) return std::string();
    std::string text(value);
    curl_free(value);
    return text;
  };
  HttpTarget target;
  const std::string port = part(CURLUPART_PORT);  // empty unless the URL names one
  target.host = part(CURLUPART_HOST) + (port.empty() ? "" : ":" + port);
  target.path = part(CURLUPART_PATH);
  if (target.path.empty()) target.path = "/";
  if (const std::string query = part(CURLUPART_QUERY); !query.empty()) target.path += "?" + query;
  target.tls = part(CURLUPART_SCHEME) == "https";
  curl_url_cleanup(handle);
  return target;
}

std::string requestHeadPrefix(const HttpTarget& target, const std::string& apiKey,
                              const std::vector<std::pair<std::string, std::string>>& given) {
  for (const auto& [name, value] : given) {
    if (name.empty() || name.find_first_of(":\r\n ") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos) {
      throw MessageError({MessageText::LoadHeaderInvalid, {name}});
    }
  }
  std::vector<std::pair<std::string, std::string>> headers{
      {"User-Agent", "ayar"}, {"Accept", "*/*"}, {"Content-Type", "application/json"}};
  if (!apiKey.empty()) headers.emplace_back("Authorization", "Bearer " + apiKey);
  for (const auto& header : given) {
    std::erase_if(headers, [&](const auto& own) { return sameHeaderName(own.first, header.first); });
    headers.push_back(header);
  }
  std::string head = "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host + "\r\n";
  for (const auto& [name, value] : headers)
    head += name + ": " + value + "\r\n";
  return head;
}

void writeRequest(std::string& out, const std::string& headPrefix, const std::string& requestIdPrefix,
                  std::int64_t index, std::string_view body) {
  out.reserve(headPrefix.size() + requestIdPrefix.size() + 64 + body.size());
  out = headPrefix;
  if (!requestIdPrefix.empty()) {
    out += "x-request-id: ";
    out += requestIdPrefix;
    out += std::to_string(index);
    out += "\r\n";
  }
  out += "Content-Length: ";
  out += std::to_string(body.size());
  out += "\r\n\r\n";
  out += body;
}

}  // namespace ayar
