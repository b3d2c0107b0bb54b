//! OpenAI-compatible streamed chat completions (`stream: true`): server-sent events whose `data:`
//! lines carry `chat.completion.chunk`s, ending with `data: [DONE]` (OpenAI's "Streaming API
//! responses" guide; the shape of `fixtures/openai/chat-completion-stream.sse`). Text arrives as
//! `choices[0].delta.content` pieces; a tool call arrives in pieces too, by `index`: its `id` and
//! `function.name` first, then `function.arguments` a fragment at a time, to be concatenated.

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};

use super::{Completion, ToolCall};

/// Splits a byte stream into the `data:` payloads of its events, however the bytes are cut (a
/// character's bytes too: lines are decoded only once whole).
#[derive(Default)]
pub struct Events {
    pending: Vec<u8>,
}

impl Events {
    /// The payloads completed by `bytes`.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(bytes);
        let mut payloads = Vec::new();
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if let Some(data) = line.strip_prefix("data:") {
                payloads.push(data.trim_start().to_owned());
            }
        }
        payloads
    }
}

/// A streamed answer put back together.
#[derive(Default)]
pub struct Assembler {
    text: String,
    calls: BTreeMap<u64, (String, String, String)>,
}

impl Assembler {
    /// Takes one chunk; answers the text it adds, if any.
    pub fn chunk(&mut self, chunk: &Json) -> Option<String> {
        let delta = &chunk["choices"][0]["delta"];
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = call["index"].as_u64().unwrap_or(0);
            let entry = self.calls.entry(index).or_default();
            if let Some(id) = call["id"].as_str() {
                entry.0.push_str(id);
            }
            if let Some(name) = call["function"]["name"].as_str() {
                entry.1.push_str(name);
            }
            if let Some(arguments) = call["function"]["arguments"].as_str() {
                entry.2.push_str(arguments);
            }
        }
        let text = delta["content"].as_str().filter(|t| !t.is_empty())?;
        self.text.push_str(text);
        Some(text.to_owned())
    }

    /// The whole answer: tool calls when there are any, else the text (None when empty).
    pub fn finish(self) -> Option<Completion> {
        if !self.calls.is_empty() {
            let calls: Vec<ToolCall> = self
                .calls
                .into_values()
                .map(|(id, name, arguments)| ToolCall {
                    id,
                    name,
                    arguments: if arguments.is_empty() { "{}".into() } else { arguments },
                })
                .collect();
            let message = json!({
                "role": "assistant",
                "content": if self.text.is_empty() { Json::Null } else { Json::String(self.text) },
                "tool_calls": calls.iter().map(|c| json!({"id": c.id, "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments}})).collect::<Vec<_>>(),
            });
            return Some(Completion::ToolCalls { calls, message });
        }
        let text = self.text.trim();
        (!text.is_empty()).then(|| Completion::Text(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_stream_gives_its_pieces_and_the_whole_text_however_the_bytes_are_cut() {
        let recorded = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../server/tests/fixtures/openai/chat-completion-stream.sse"
        ))
        .expect("the recorded stream");
        for cut in [1, 7, 64, recorded.len()] {
            let (mut events, mut answer, mut pieces, mut done) =
                (Events::default(), Assembler::default(), Vec::new(), false);
            for bytes in recorded.chunks(cut) {
                for payload in events.feed(bytes) {
                    if payload == "[DONE]" {
                        done = true;
                        continue;
                    }
                    pieces.extend(answer.chunk(&serde_json::from_str(&payload).unwrap()));
                }
            }
            assert!(done, "cut every {cut} bytes");
            assert_eq!(pieces, vec!["Ótima ", "pergunta!"]);
            assert_eq!(answer.finish(), Some(Completion::Text("Ótima pergunta!".into())));
        }
    }

    #[test]
    fn a_tool_call_streamed_in_pieces_is_put_back_together() {
        let mut answer = Assembler::default();
        for chunk in [
            json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "save_plan_section", "arguments": ""}}]}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"section\": "}}]}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "\"idea\"}"}}]}}]}),
            json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
        ] {
            assert_eq!(answer.chunk(&chunk), None, "no text");
        }
        let Some(Completion::ToolCalls { calls, message }) = answer.finish() else { panic!("a tool call") };
        assert_eq!(calls[0].name, "save_plan_section");
        assert_eq!(calls[0].arguments, r#"{"section": "idea"}"#);
        assert_eq!(message["tool_calls"][0]["id"], "call_1");
    }
}
