#pragma once

namespace ayar::sqlite {
class Connection;
}

namespace ayar {

// The schema version this build writes (PRAGMA user_version). Version 0 is an empty file.
int latestSchemaVersion();

// Brings the store's schema up to latestSchemaVersion() in one IMMEDIATE transaction, so two
// processes opening a new file at once migrate it once. Throws ayar::Error when the file is newer
// than this build or is another program's SQLite database.
void migrateToLatest(sqlite::Connection& connection);

}  // namespace ayar
