-- Memory beyond the window: per person, a summary of the conversation older than what the model
-- is shown, brought up to date by a job every so many messages; erased with the person.
create table conversation_summaries (
    user_id text primary key references users (id) on delete cascade,
    summary text not null,
    -- the time of the newest message the summary covers
    covers_until bigint not null,
    -- with the model, or the guide's recap without one
    source text not null,
    updated_at bigint not null
);
