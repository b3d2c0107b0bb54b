-- Logging in by sending a message (AuthService.StartWhatsAppLogin): the browser holds a secret
-- login id (kept here only as its SHA-256) and shows the person a short code to send us on
-- WhatsApp; when it arrives we ask them there whether it was them, and only their "yes" logs the
-- browser in. Rows are removed a day after they expire.
create table message_logins (
    id text primary key,
    -- the short code in the text, upper case without its dash; unique while the row lives
    code text not null,
    language text not null,
    -- waiting (for the message) | asked (we asked on WhatsApp) | confirmed | refused | claimed
    status text not null,
    -- who sent the code (once it arrived)
    user_id text references users (id) on delete cascade,
    created_at bigint not null,
    expires_at bigint not null,
    answered_at bigint
);
create unique index message_logins_code_idx on message_logins (code);
create index message_logins_user_idx on message_logins (user_id, status);
create index message_logins_expiry_idx on message_logins (expires_at);
