-- Two jobs of one subject made in the same millisecond of the app's clock (the replies to two
-- messages read together, "PARAR" then "VOLTAR") ran side by side and could go out in either
-- order: the claim now breaks the tie by the job's id, time-ordered (UUIDv7) since this change,
-- and the index carries it so the claim still reads its order from the index without a sort.
drop index jobs_due_idx;
create index jobs_due_idx on jobs (kind, run_at, created_at, id) where status = 'queued';
