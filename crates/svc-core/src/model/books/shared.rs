//! Pieces several books resources share: untyped values, custom fields, tax summaries and treatments.

use crate::model::common::{value_set, wire, Id, JsonNumber};
use serde::{Deserialize, Serialize};
use tsify::Tsify;

/// A value the documents leave untyped and the examples send in more than one JSON type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Tsify)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Number(JsonNumber),
    Text(String),
}

/// Any JSON value: the rules leave its type to the checks that name it.
impl crate::schema::Shape for Scalar {
    const KIND: crate::schema::Kind = crate::schema::Kind::Any;
}

value_set! {
    /// UK and Europe editions.
    VatTreatment {
        Uk = "uk",
        EuVatRegistered = "eu_vat_registered",
        EuVatNotRegistered = "eu_vat_not_registered",
        NonEu = "non_eu",
        Overseas = "overseas",
    }
}

value_set! {
    DebitOrCredit { Debit = "debit", Credit = "credit" }
}

value_set! {
    /// India GST edition.
    GstTreatment {
        BusinessGst = "business_gst",
        BusinessNone = "business_none",
        Overseas = "overseas",
        Consumer = "consumer",
    }
}

/// A value set of the expense tax treatments (the union of the UAE, Kenya and South Africa lists),
/// then the values given.
macro_rules! tax_treatments {
    ($(#[$m:meta])* $name:ident { $($more:tt)* }) => {
        value_set! {
            $(#[$m])*
            $name {
                VatRegistered = "vat_registered",
                VatNotRegistered = "vat_not_registered",
                GccVatNotRegistered = "gcc_vat_not_registered",
                GccVatRegistered = "gcc_vat_registered",
                NonGcc = "non_gcc",
                DzVatRegistered = "dz_vat_registered",
                DzVatNotRegistered = "dz_vat_not_registered",
                NonKenya = "non_kenya",
                Overseas = "overseas",
                $($more)*
            }
        }
    };
}

tax_treatments! {
    /// The union of the UAE, Kenya and South Africa lists.
    ExpenseTaxTreatment {}
}

tax_treatments! {
    /// The expense list plus the Mexico values.
    VendorCreditTaxTreatment {
        HomeCountryMexico = "home_country_mexico",
        BorderRegionMexico = "border_region_mexico",
        NonMexico = "non_mexico",
    }
}

wire! {
    /// A custom field pair of a request.
    request CustomFieldInput {
        customfield_id?: Id,
        value?: String,
    }
}

wire! {
    response CustomField {
        customfield_id?: Id,
        value?: String,
        label?: String,
        index?: JsonNumber,
    }
}

wire! {
    /// `{ tax: { tax_name, tax_amount } }` of the VAT summaries.
    response VatSummary {
        tax?: SummaryTax,
    }
}

wire! {
    response SummaryTax {
        tax_name?: String,
        tax_amount?: JsonNumber,
    }
}
