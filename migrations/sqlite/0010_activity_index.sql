-- The admin's users list pages by latest activity: an index in that order, so a page is a short
-- index walk instead of a sort of every user.
create index users_activity_idx on users (coalesce(last_active_at, created_at) desc, id);
