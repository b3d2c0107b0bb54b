//! Pages of a list, as every list call takes them: `page` from 1 and `limit` from 1 to 100, each
//! with a default when unset (0); and the list responses, which answer a page's items with the
//! total, the count of pages it makes and, in some, the page's own numbers.

use super::call::Reply;
use crate::{
    error::{AppError, Problem},
    proto::socio::v1 as pb,
};

/// The spec's page size where a call names none.
pub const DEFAULT_LIMIT: i32 = 20;

/// One valid page of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// From 1.
    pub number: i64,
    /// From 1 to 100.
    pub limit: i64,
}

impl Page {
    /// `page` and `limit` as sent (0 means unset), with `default_limit` for an unset limit.
    pub fn parse(page: i32, limit: i32, default_limit: i32) -> Result<Self, AppError> {
        let page = if page == 0 { 1 } else { page };
        let limit = if limit == 0 { default_limit } else { limit };
        if page < 1 {
            return Err(AppError::invalid("page", Problem::OutOfRange { min: 1, max: i64::from(i32::MAX) }));
        }
        if !(1..=100).contains(&limit) {
            return Err(AppError::invalid("limit", Problem::OutOfRange { min: 1, max: 100 }));
        }
        Ok(Self { number: i64::from(page), limit: i64::from(limit) })
    }

    /// How many rows come before this page.
    pub fn offset(self) -> i64 {
        (self.number - 1) * self.limit
    }

    /// How many pages `total` rows fill.
    pub fn count(self, total: i64) -> i32 {
        ((total + self.limit - 1) / self.limit) as i32
    }

    /// The page's number, as the responses echo it.
    fn page(self) -> i32 {
        self.number as i32
    }

    /// The page's size, as the responses echo it.
    fn limit(self) -> i32 {
        self.limit as i32
    }

    /// A list call's reply: this page's `items` of `total`.
    pub fn reply<R: PagedResponse>(self, items: impl IntoIterator<Item = R::Item>, total: i64) -> Reply<R> {
        R::paged(items.into_iter().collect(), total, self).into()
    }
}

/// A list call's response: a page's items and its numbers.
pub trait PagedResponse: Sized {
    type Item;
    fn paged(items: Vec<Self::Item>, total: i64, page: Page) -> Self;
}

/// [`PagedResponse`] for list responses: the type, its items' field and type, and which of the
/// page's numbers (`page`, `limit`) it echoes besides `total` and `total_pages`.
macro_rules! paged_response {
    ($($response:ident { $items:ident: $item:ident $(, $echo:ident)* }),* $(,)?) => {$(
        impl PagedResponse for pb::$response {
            type Item = pb::$item;
            fn paged(items: Vec<pb::$item>, total: i64, page: Page) -> Self {
                Self { $items: items, total: total as i32, total_pages: page.count(total), $($echo: page.$echo(),)* }
            }
        }
    )*};
}

paged_response! {
    ListUsersResponse { users: AdminUser, page },
    GetChatHistoryResponse { messages: ChatMessage, page },
    ListAuditEventsResponse { events: AuditEvent },
    ListFailedMessagesResponse { messages: FailedMessage },
    ListChatMessagesResponse { messages: ChatMessage },
    ListDashboardMessagesResponse { messages: MessagePreview, page, limit },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_values_take_the_defaults_and_pages_round_up() {
        let page = Page::parse(0, 0, DEFAULT_LIMIT).unwrap();
        assert_eq!((page.number, page.limit, page.offset()), (1, 20, 0));
        assert_eq!(Page::parse(3, 0, 50).unwrap().offset(), 100);
        assert_eq!(page.count(0), 0);
        assert_eq!(page.count(41), 3);
    }

    #[test]
    fn out_of_bounds_pages_and_limits_are_invalid() {
        assert!(Page::parse(-1, 10, DEFAULT_LIMIT).is_err());
        assert!(Page::parse(1, 101, DEFAULT_LIMIT).is_err());
        assert!(Page::parse(1, -5, DEFAULT_LIMIT).is_err());
    }
}
