//! Wire types of organizations: create and update bodies, addresses, the organization itself.

use super::shared::CustomField;
use crate::format::Format;
use crate::model::common::{value_set, wire, Id, JsonInteger, JsonNumber};

value_set! {
    /// Month in which the fiscal year starts (requests).
    FiscalYearStartMonth {
        January = "january", February = "february", March = "march", April = "april",
        May = "may", June = "june", July = "july", August = "august",
        September = "september", October = "october", November = "november", December = "december",
    }
}

value_set! {
    blank IndustrySize { SmallScale = "small scale", MediumScale = "medium scale", LargeScale = "large scale" }
}

wire! {
    request OrganizationAddressInput {
        street_address1?: String,
        street_address2?: String,
        city?: String,
        state?: String,
        country?: String,
        zip?: String,
    }
}

wire! {
    response OrganizationAddress {
        street_address1?: String,
        street_address2?: String,
        city?: String,
        state?: String,
        country?: String,
        zip?: String,
    }
}

wire! {
    /// Body of `createOrganization`.
    request OrganizationCreateInput {
        name: String,
        currency_code: String,
        time_zone: String,
        /// 5 to 30 letters and digits.
        portal_name: String [LenBetween(5, 30), Format(Format::Alnum)],
        fiscal_year_start_month?: FiscalYearStartMonth,
        date_format?: String,
        field_separator?: String,
        language_code?: String,
        industry_type?: String,
        industry_size?: IndustrySize,
        org_address?: String,
        remit_to_address?: String,
        address?: OrganizationAddressInput,
    }
}

wire! {
    request OrganizationCustomFieldInput {
        index?: JsonNumber,
        value?: String,
        label?: String,
    }
}

wire! {
    /// Body of `updateOrganization`: every field optional.
    request OrganizationUpdateInput {
        name?: String,
        fiscal_year_start_month?: FiscalYearStartMonth,
        is_logo_uploaded?: bool,
        time_zone?: String,
        date_format?: String,
        field_separator?: String,
        language_code?: String,
        org_address?: String,
        remit_to_address?: String,
        address?: OrganizationAddressInput,
        contact_name?: String,
        phone?: String,
        fax?: String,
        website?: String,
        email?: String,
        currency_id?: Id,
        companyid_label?: String,
        companyid_value?: String,
        taxid_label?: String,
        taxid_value?: String,
        custom_fields?: Vec<OrganizationCustomFieldInput>,
    }
}

wire! {
    /// An organization as the create, list and update responses return it.
    response Organization {
        organization_id: Id,
        name?: String,
        is_logo_uploaded?: String,
        is_default_org?: bool,
        user_role?: String,
        account_created_date?: String,
        account_created_date_formatted?: String,
        time_zone?: String,
        language_code?: String,
        date_format?: String,
        field_separator?: String,
        fiscal_year_start_month?: JsonNumber,
        tax_group_enabled?: bool,
        user_status?: String,
        contact_name?: String,
        industry_type?: String,
        industry_size?: String,
        address?: OrganizationAddress,
        org_address?: String,
        remit_to_address?: String,
        email?: String,
        phone?: String,
        fax?: String,
        website?: String,
        company_id_label?: String,
        company_id_value?: String,
        tax_id_label?: String,
        tax_id_value?: String,
        currency_id?: Id,
        currency_code?: String,
        currency_symbol?: String,
        currency_format?: String,
        price_precision?: JsonInteger,
        plan_type?: JsonInteger,
        plan_name?: String,
        plan_period?: String,
        zi_migration_status?: JsonInteger,
        is_org_active?: bool,
        custom_fields?: Vec<CustomField>,
    }
}
