//! Checks of the SQLite build every connection uses (the one sqlx links, with the options of
//! `LIBSQLITE3_FLAGS` in `.cargo/config.toml`): what those options promise, observed through
//! SQLite's own C interface.

#[cfg(test)]
mod tests {
    use std::ffi::{CStr, c_int};

    use libsqlite3_sys as ffi;

    /// Runs `sql` once per value of `?1`, on one prepared statement as sqlx keeps it, and answers
    /// how many times SQLite compiled the statement again. `stable: Some(false)` turns the query
    /// planner's stability guarantee off on the connection first (the control).
    fn recompilations(sql: &CStr, values: &[i64], stable: Option<bool>) -> c_int {
        // SAFETY: a private in-memory database and one statement, both used on this thread only
        // and finalised and closed before returning; every pointer passed comes from SQLite.
        unsafe {
            let mut db = std::ptr::null_mut();
            let flags = ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_CREATE | ffi::SQLITE_OPEN_MEMORY;
            assert_eq!(ffi::sqlite3_open_v2(c":memory:".as_ptr(), &mut db, flags, std::ptr::null()), 0);
            if let Some(stable) = stable {
                let set = ffi::sqlite3_db_config(
                    db,
                    ffi::SQLITE_DBCONFIG_ENABLE_QPSG,
                    c_int::from(stable),
                    std::ptr::null_mut::<c_int>(),
                );
                assert_eq!(set, 0);
            }
            let create = c"create table t (n integer); insert into t values (1), (2), (3);";
            assert_eq!(
                ffi::sqlite3_exec(db, create.as_ptr(), None, std::ptr::null_mut(), std::ptr::null_mut()),
                0
            );
            let mut statement = std::ptr::null_mut();
            let persistent = ffi::SQLITE_PREPARE_PERSISTENT;
            assert_eq!(
                ffi::sqlite3_prepare_v3(
                    db,
                    sql.as_ptr(),
                    -1,
                    persistent,
                    &mut statement,
                    std::ptr::null_mut()
                ),
                0
            );
            for value in values {
                ffi::sqlite3_reset(statement);
                assert_eq!(ffi::sqlite3_bind_int64(statement, 1, *value), 0);
                while ffi::sqlite3_step(statement) == ffi::SQLITE_ROW {}
            }
            let recompiled = ffi::sqlite3_stmt_status(statement, ffi::SQLITE_STMTSTATUS_REPREPARE, 0);
            ffi::sqlite3_finalize(statement);
            ffi::sqlite3_close(db);
            recompiled
        }
    }

    #[test]
    fn a_statement_with_a_bound_limit_is_compiled_once_however_often_it_is_bound() {
        let limited = c"select n from t order by n limit ?1";
        assert_eq!(recompilations(limited, &[2, 2, 3, 1], None), 0, "the planner read the bound LIMIT");
        // The control: without the guarantee, every bind compiles it again.
        assert_eq!(recompilations(limited, &[2, 2, 3, 1], Some(false)), 4);
    }
}
