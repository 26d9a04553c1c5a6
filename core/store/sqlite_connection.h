#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "core/report/message_text.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ayar::sqlite {

// A prepared statement. Binding indices start at 1, column indices at 0 (SQLite's convention).
// Errors throw ayar::Error naming the store's path.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql, const std::filesystem::path& path);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, bool value) { return bind(index, static_cast<std::int64_t>(value ? 1 : 0)); }
  // NaN is stored as NULL (SQLite's own rule, made explicit here) and reads back as NaN.
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bindBlob(int index, std::span<const std::byte> bytes);
  Statement& bindNull(int index);

  // Runs one step: true when a row is ready to read, false when the statement is done.
  bool step();
  // Runs a statement that returns no rows, then resets it for the next use.
  void run();
  void reset();

  bool isNull(int column) const;
  std::int64_t columnInt(int column) const;
  double columnDouble(int column) const;  // NULL reads as NaN
  std::string columnText(int column) const;
  std::span<const std::byte> columnBlob(int column) const;  // valid until the next step or reset

 private:
  sqlite3* m_db;
  sqlite3_stmt* m_stmt = nullptr;
  const std::filesystem::path* m_path;
};

// One open connection with Ayar's settings: WAL journal, synchronous=NORMAL, foreign keys on, a busy
// timeout, and the schema migrated to the version this build knows. One connection must be used by
// one thread at a time; its owners serialise access.
class Connection {
 public:
  // Creates the parent folder and the file when missing. Throws ayar::Error naming the path and what
  // to do when the location is not writable, the file is not a SQLite database or another program's,
  // or its schema is newer than this build.
  Connection(std::filesystem::path path, std::chrono::milliseconds busyTimeout);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  sqlite3* handle() const { return m_db; }

  // `action` names the step in an error message ("opening", "a statement").
  void exec(std::string_view sql, std::string_view action = "a statement");
  Statement prepare(std::string_view sql) { return Statement(m_db, sql, m_path); }
  std::int64_t lastInsertRowId() const;
  int changes() const;
  int schemaVersion();
  std::string journalMode();
  // The first column of the first row of `sql`, as text; "" when there is none.
  std::string queryText(std::string_view sql, std::string_view action);

  // Throws ayar::Error for the SQLite result code `rc` from `action`, with advice for the user.
  [[noreturn]] void fail(int rc, std::string_view action) const;

 private:
  void configure(std::chrono::milliseconds busyTimeout);

  std::filesystem::path m_path;
  sqlite3* m_db = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed uncommitted (an exception on the way).
// IMMEDIATE takes the write lock up front, so a busy database waits in the busy handler at BEGIN
// instead of failing half-way through the transaction.
class Transaction {
 public:
  explicit Transaction(Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& m_connection;
  bool m_open = true;
};

// The error for a failed SQLite call, with what the user can do about it. `action` is one of the
// steps stepArgument() names in sqlite_connection.cpp, to be said in Turkish too.
MessageError describeFailure(const std::filesystem::path& path, int rc, std::string_view action,
                             std::string_view sqliteMessage);

}  // namespace ayar::sqlite
