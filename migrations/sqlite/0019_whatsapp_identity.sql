-- no-transaction
-- WhatsApp as it is in late 2026 (Meta's "Business-scoped user IDs" page): every delivery carries a
-- business-scoped user id (BSUID, `BR.1502576394655843`), and a person who adopts a username may
-- arrive with no phone number at all. A person is one account whatever WhatsApp shows of them: the
-- phone becomes optional, the BSUID is stored (unique) with the username.
--
-- SQLite cannot drop a NOT NULL constraint: the table is rebuilt as its documentation says
-- (<https://www.sqlite.org/lang_altertable.html>, "Making Other Kinds Of Table Schema Changes"),
-- with foreign keys off so that the tables pointing at users keep their rows, and checked before
-- the commit. Hence no transaction around the file: the pragma only works outside one.

pragma foreign_keys = off;

begin immediate;

create table users_rebuilt (
    id text primary key,
    phone_number text unique,
    name text not null default '',
    language text not null default 'pt-BR',
    subscription_status text not null default 'free',
    role text not null default 'user',
    created_at bigint not null,
    updated_at bigint not null,
    last_active_at bigint,
    last_login_at bigint,
    -- the server rewrites every search key at its next start (usernames are searched too)
    search_key text not null default '',
    phone_key text,
    bsuid text,
    username text
);

insert into users_rebuilt (id, phone_number, name, language, subscription_status, role, created_at,
                           updated_at, last_active_at, last_login_at, search_key, phone_key)
select id, phone_number, name, language, subscription_status, role, created_at, updated_at,
       last_active_at, last_login_at, '', nullif(phone_key, '')
from users;

drop table users;
alter table users_rebuilt rename to users;

create index users_last_active_idx on users (last_active_at);
create index users_created_idx on users (created_at);
create index users_activity_idx on users (coalesce(last_active_at, created_at) desc, id);
create unique index users_phone_key_idx on users (phone_key);
create unique index users_bsuid_idx on users (bsuid);

-- What Meta billed each message of ours as (`statuses[].pricing`): null until a status says.
alter table messages add column billable integer;
alter table messages add column pricing_category text;
alter table messages add column pricing_type text;
create index messages_billed_idx on messages (billable, created_at);

commit;

pragma foreign_keys = on;
