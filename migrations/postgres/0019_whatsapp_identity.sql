-- WhatsApp as it is in late 2026 (Meta's "Business-scoped user IDs" page): every delivery carries a
-- business-scoped user id (BSUID, `BR.1502576394655843`), and a person who adopts a username may
-- arrive with no phone number at all. A person is one account whatever WhatsApp shows of them: the
-- phone becomes optional, the BSUID is stored (unique) with the username.

alter table users alter column phone_number drop not null;
alter table users alter column phone_key drop not null;
alter table users alter column phone_key drop default;
update users set phone_key = null where phone_key = '';
alter table users add column bsuid text;
alter table users add column username text;
create unique index users_bsuid_idx on users (bsuid);

-- Searches find people by username too: the server rewrites every search key at its next start.
update users set search_key = '';

-- What Meta billed each message of ours as (`statuses[].pricing`): null until a status says.
alter table messages add column billable integer;
alter table messages add column pricing_category text;
alter table messages add column pricing_type text;
create index messages_billed_idx on messages (billable, created_at);
