-- A Brazilian mobile is one person with or without its ninth digit: older WhatsApp accounts have a
-- 12-digit wa_id (+55 31 8765-4321) while people type 13 digits (+55 31 98765-4321). Users keep
-- phone_number exactly as WhatsApp delivered it (messages go there) and get phone_key, the
-- 13-digit form, by which logins, checkouts and admins find them. A subscriber number of 8 digits
-- beginning with 6-9 is a mobile that lacks its 9; landlines (2-5) and other countries are their
-- own key. The same rule is PhoneNumber::identity in the server.
--
-- Two existing users that turn out to be one person are never merged here: the most recently
-- active keeps the key, the other is listed in phone_key_conflicts (the server logs each one at
-- start and the README says how an admin resolves it) and keeps a key of its own.

alter table users add column phone_key text not null default '';

update users set phone_key = case
    when length(phone_number) = 13 and substr(phone_number, 1, 3) = '+55'
         and substr(phone_number, 4, 1) <> '0' and substr(phone_number, 5, 1) <> '0'
         and substr(phone_number, 6, 1) in ('6', '7', '8', '9')
    then substr(phone_number, 1, 5) || '9' || substr(phone_number, 6)
    else phone_number
end;

create table phone_key_conflicts (
    -- the account that did not keep the key
    user_id text primary key,
    -- the account that did: the one most recently active
    kept_user_id text not null,
    phone_key text not null,
    found_at bigint not null
);

insert into phone_key_conflicts (user_id, kept_user_id, phone_key, found_at)
select u.id, k.id, u.phone_key, cast(strftime('%s', 'now') as integer) * 1000
from users u join users k on k.phone_key = u.phone_key and k.id <> u.id
where not exists (
    select 1 from users o
    where o.phone_key = k.phone_key and o.id <> k.id
      and (coalesce(o.last_active_at, o.created_at) > coalesce(k.last_active_at, k.created_at)
           or (coalesce(o.last_active_at, o.created_at) = coalesce(k.last_active_at, k.created_at) and o.id > k.id))
);

update users set phone_key = phone_number || '#' || id where id in (select user_id from phone_key_conflicts);

create unique index users_phone_key_idx on users (phone_key);

-- Searches match both spellings: the server rewrites every search key at its next start.
update users set search_key = '';

-- Login codes and failure counts belong to the person, not to one spelling.
update login_codes set phone_number = case
    when length(phone_number) = 13 and substr(phone_number, 1, 3) = '+55'
         and substr(phone_number, 4, 1) <> '0' and substr(phone_number, 5, 1) <> '0'
         and substr(phone_number, 6, 1) in ('6', '7', '8', '9')
    then substr(phone_number, 1, 5) || '9' || substr(phone_number, 6)
    else phone_number
end;
delete from phone_auth_state where phone_number in (
    select s.phone_number from phone_auth_state s
    where length(s.phone_number) = 13 and substr(s.phone_number, 1, 3) = '+55'
      and substr(s.phone_number, 4, 1) <> '0' and substr(s.phone_number, 5, 1) <> '0'
      and substr(s.phone_number, 6, 1) in ('6', '7', '8', '9')
      and exists (select 1 from phone_auth_state t
                  where t.phone_number = substr(s.phone_number, 1, 5) || '9' || substr(s.phone_number, 6))
);
update phone_auth_state set phone_number = substr(phone_number, 1, 5) || '9' || substr(phone_number, 6)
where length(phone_number) = 13 and substr(phone_number, 1, 3) = '+55'
  and substr(phone_number, 4, 1) <> '0' and substr(phone_number, 5, 1) <> '0'
  and substr(phone_number, 6, 1) in ('6', '7', '8', '9');
