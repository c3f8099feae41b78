//! Wire types of currencies: bodies, list entries and list queries.

use crate::model::common::{value_set, wire, Id, JsonInteger, JsonNumber, PageNumber};

wire! {
    /// Create and update body of a currency. The documents give three of the text fields maximum
    /// lengths of 100, 4 and 100 without saying which, so none is enforced.
    request CurrencyInput {
        currency_code?: String,
        currency_symbol?: String,
        price_precision?: JsonInteger,
        /// A number pattern, e.g. `1,234,567.89`.
        currency_format?: String,
    }
}

wire! {
    /// A currency as returned by create, get and update.
    response Currency {
        currency_id: Id,
        currency_code?: String,
        currency_name?: String,
        currency_symbol?: String,
        price_precision?: JsonInteger,
        currency_format?: String,
        is_base_currency?: bool,
    }
    /// An entry of the currency list: a currency with its exchange rate.
    and CurrencyListEntry {
        exchange_rate?: JsonNumber,
        /// A date `yyyy-mm-dd`.
        effective_date?: String,
    }
}

value_set! {
    /// Filter of the currency list.
    CurrencyFilter {
        ExcludeBaseCurrency = "Currencies.ExcludeBaseCurrency",
    }
}

wire! {
    /// Query of the currency list.
    request CurrencyListQuery {
        /// A blank string sends no filter.
        filter_by?: CurrencyFilter [OneOfUnlessBlank(CurrencyFilter::VALUES)],
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
