#include "core/store/sqlite_connection.h"

#include <sqlite3.h>

#include <cassert>
#include <cmath>
#include <limits>
#include <optional>
#include <system_error>
#include <utility>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/store/schema.h"

namespace ayar::sqlite {

namespace {

std::optional<MessageText> adviceFor(int primaryCode) {
  switch (primaryCode) {
    case SQLITE_NOTADB:
      return MessageText::StoreAdviceNotADatabase;
    case SQLITE_CORRUPT:
      return MessageText::StoreAdviceCorrupt;
    case SQLITE_READONLY:
      return MessageText::StoreAdviceReadOnly;
    case SQLITE_CANTOPEN:
      return MessageText::StoreAdviceCannotOpen;
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return MessageText::StoreAdvicePermission;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return MessageText::StoreAdviceBusy;
    case SQLITE_FULL:
      return MessageText::StoreAdviceFull;
    case SQLITE_IOERR:
      return MessageText::StoreAdviceIo;
    case SQLITE_NOMEM:
      return MessageText::StoreAdviceMemory;
    case SQLITE_CONSTRAINT:
      return MessageText::StoreAdviceConstraint;
    default:
      return std::nullopt;
  }
}

// The step that failed, in each language; a step this table does not name is said as written.
MessageArgument stepArgument(std::string_view action) {
  static constexpr std::pair<std::string_view, MessageText> kSteps[] = {
      {"opening", MessageText::StoreStepOpening},
      {"opening for writing", MessageText::StoreStepOpeningForWriting},
      {"preparing a query", MessageText::StoreStepPreparing},
      {"a query", MessageText::StoreStepQuery},
      {"a statement", MessageText::StoreStepStatement},
      {"switching to the WAL journal", MessageText::StoreStepWal},
      {"reading the journal mode", MessageText::StoreStepJournalMode},
  };
  for (const auto& [english, id] : kSteps) {
    if (english == action) return Message{id, {}}.asArgument();
  }
  return std::string(action);
}

}  // namespace

MessageError describeFailure(const std::filesystem::path& path, int rc, std::string_view action,
                             std::string_view sqliteMessage) {
  MessageArgument details("");
  if (!sqliteMessage.empty()) details = " (" + std::string(sqliteMessage) + ")";
  if (const auto advice = adviceFor(rc & 0xff)) {
    details.english += ": " + Message{*advice, {}}.in(ReportLanguage::English);
    details.turkish += ": " + Message{*advice, {}}.in(ReportLanguage::Turkish);
  }
  return MessageError({MessageText::StoreFailed, {path.string(), stepArgument(action), std::move(details)}});
}

// ---- Statement ----

Statement::Statement(sqlite3* db, std::string_view sql, const std::filesystem::path& path)
    : m_db(db), m_path(&path) {
  const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                    &m_stmt, nullptr);
  if (rc != SQLITE_OK) {
    throw describeFailure(path, rc, "preparing a query", sqlite3_errmsg(db));
  }
}

Statement::~Statement() {
  sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept
    : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr)), m_path(other.m_path) {}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(m_stmt, index, value);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (std::isnan(value)) return bindNull(index);
  sqlite3_bind_double(m_stmt, index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  // SQLITE_TRANSIENT: SQLite copies, so callers may pass temporaries.
  sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

Statement& Statement::bindBlob(int index, std::span<const std::byte> bytes) {
  // A zero-length blob, not NULL, so that "no chunks" reads back as an empty list.
  if (bytes.empty()) {
    sqlite3_bind_zeroblob(m_stmt, index, 0);
  } else {
    sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  }
  return *this;
}

Statement& Statement::bindNull(int index) {
  sqlite3_bind_null(m_stmt, index);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  MessageError error = describeFailure(*m_path, rc, "a query", sqlite3_errmsg(m_db));
  sqlite3_reset(m_stmt);
  throw error;
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const {
  return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t Statement::columnInt(int column) const {
  return sqlite3_column_int64(m_stmt, column);
}

double Statement::columnDouble(int column) const {
  if (isNull(column)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(m_stmt, column);
}

std::string Statement::columnText(int column) const {
  const auto* text = sqlite3_column_text(m_stmt, column);
  const int size = sqlite3_column_bytes(m_stmt, column);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::span<const std::byte> Statement::columnBlob(int column) const {
  const void* data = sqlite3_column_blob(m_stmt, column);
  const int size = sqlite3_column_bytes(m_stmt, column);
  if (data == nullptr || size <= 0) return {};
  return {static_cast<const std::byte*>(data), static_cast<std::size_t>(size)};
}

// ---- Connection ----

Connection::Connection(std::filesystem::path path, std::chrono::milliseconds busyTimeout)
    : m_path(std::move(path)) {
  if (m_path.empty()) {
    throw MessageError({MessageText::StorePathEmpty, {}});
  }
  const std::filesystem::path parent = m_path.parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      throw MessageError(
          {MessageText::StoreCannotCreateFolder, {m_path.string(), parent.string(), ec.message()}});
    }
  }
  std::error_code ec;
  if (std::filesystem::is_directory(m_path, ec)) {
    throw MessageError({MessageText::StoreIsFolder, {m_path.string(), (m_path / "ayar.db").string()}});
  }

  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  const int rc = sqlite3_open_v2(m_path.c_str(), &m_db, flags, nullptr);
  if (rc != SQLITE_OK) {
    MessageError error =
        describeFailure(m_path, rc, "opening", m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    throw error;
  }
  try {
    configure(busyTimeout);
    migrateToLatest(*this);
  } catch (...) {
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    throw;
  }
}

Connection::~Connection() {
  // close_v2 defers the close until every statement is finalised, so member order does not matter.
  if (m_db != nullptr) sqlite3_close_v2(m_db);
}

void Connection::configure(std::chrono::milliseconds busyTimeout) {
  sqlite3_extended_result_codes(m_db, 1);
  sqlite3_busy_timeout(m_db, static_cast<int>(busyTimeout.count()));
  if (sqlite3_db_readonly(m_db, "main") == 1) fail(SQLITE_READONLY, "opening for writing");
  // The first statement that reads the file: a text file or a damaged one fails here.
  if (queryText("PRAGMA journal_mode", "opening") != "wal") {
    // Readers never block the writer and the writer never blocks readers: the CLI, the GUI and a
    // running benchmark share the file. A file system without shared memory keeps its old mode.
    queryText("PRAGMA journal_mode=WAL", "switching to the WAL journal");
  }
  // In WAL mode NORMAL loses nothing when the process dies, only on power loss, and commits
  // without an fsync each time.
  exec("PRAGMA synchronous=NORMAL", "opening");
  exec("PRAGMA foreign_keys=ON", "opening");
}

void Connection::exec(std::string_view sql, std::string_view action) {
  const std::string text(sql);
  char* error = nullptr;
  const int rc = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    const std::string message = error != nullptr ? error : sqlite3_errmsg(m_db);
    sqlite3_free(error);
    throw describeFailure(m_path, rc, action, message);
  }
}

std::int64_t Connection::lastInsertRowId() const {
  return sqlite3_last_insert_rowid(m_db);
}

int Connection::changes() const {
  return sqlite3_changes(m_db);
}

int Connection::schemaVersion() {
  auto query = prepare("PRAGMA user_version");
  query.step();
  return static_cast<int>(query.columnInt(0));
}

std::string Connection::journalMode() {
  return queryText("PRAGMA journal_mode", "reading the journal mode");
}

std::string Connection::queryText(std::string_view sql, std::string_view action) {
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(statement);
  std::string value;
  if (rc == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(statement, 0);
    if (text != nullptr) value = reinterpret_cast<const char*>(text);
  }
  const std::string message = sqlite3_errmsg(m_db);
  sqlite3_finalize(statement);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) throw describeFailure(m_path, rc, action, message);
  return value;
}

void Connection::fail(int rc, std::string_view action) const {
  throw describeFailure(m_path, rc, action, sqlite3_errstr(rc));
}

// ---- Transaction ----

Transaction::Transaction(Connection& connection) : m_connection(connection) {
  m_connection.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (m_open) sqlite3_exec(m_connection.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  assert(m_open);
  m_connection.exec("COMMIT");
  m_open = false;
}

}  // namespace ayar::sqlite
