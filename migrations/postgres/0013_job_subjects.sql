-- A job may act for one subject (a person): that subject's jobs of one kind run one at a time, in
-- order (replies are never composed side by side; sends go out in the order they were made).
alter table jobs add column subject text;
create index jobs_subject_idx on jobs (subject, kind, status);
-- A batched job (a reply to a burst of messages) waits under its batch key; at most one waits per
-- key, and each new message moves its time (the batch window's trailing debounce).
alter table jobs add column batch_key text;
create unique index jobs_one_waiting_per_batch on jobs (batch_key) where status = 'queued';
