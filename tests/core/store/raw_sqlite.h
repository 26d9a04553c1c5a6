#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace ayar::test {

// A plain SQLite connection for looking at a store file from outside the code under test.
class RawSqlite {
 public:
  explicit RawSqlite(const std::filesystem::path& path) {
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(m_db);
    }
    sqlite3_busy_timeout(m_db, 10000);
  }
  ~RawSqlite() { sqlite3_close_v2(m_db); }
  RawSqlite(const RawSqlite&) = delete;
  RawSqlite& operator=(const RawSqlite&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << (error != nullptr ? error : "?");
    }
    sqlite3_free(error);
  }

  // The first column of the first row as text ("" when there is no row or it is NULL).
  std::string text(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    std::string value;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(m_db);
      return value;
    }
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0) != nullptr) {
      value = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    return value;
  }

  std::int64_t integer(const std::string& sql) {
    const std::string value = text(sql);
    return value.empty() ? 0 : std::stoll(value);
  }

 private:
  sqlite3* m_db = nullptr;
};

}  // namespace ayar::test
