//! Tests of the organization rules.

use super::examples::example;
use super::support::{allowed, assert_ok, run, set};
use crate::issue::IssueCode;
use crate::model::books as m;
use crate::schema::Params;
use crate::validate::tests::support::{edge, expect_all};
use serde_json::json;

edge! {
    org_name_given_passes / org_name_missing_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["name"],
        "Zillium Inc" => null, Required {};
    org_currency_code_given_passes / org_currency_code_missing_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["currency_code"],
        "EUR" => null, Required {};
    org_time_zone_given_passes / org_time_zone_missing_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["time_zone"],
        "Europe/Berlin" => null, Required {};
    portal_name_given_passes / portal_name_missing_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
        "zilluminc" => null, Required {};
    portal_name_of_30_passes / portal_name_of_31_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
        ("a".repeat(30)) => ("a".repeat(31)), TooLong { "maximum": 30 };
    portal_name_of_5_passes / portal_name_of_4_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
        "abcde" => "abcd", TooShort { "minimum": 5 };
    portal_name_of_letters_and_digits_passes / portal_name_with_a_hyphen_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["portal_name"],
        "Zillium2024" => "zillium-inc", InvalidFormat { "format": "alphanumeric" };
    fiscal_year_start_month_december_passes / fiscal_year_start_month_abbreviated_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["fiscal_year_start_month"],
        "december" => "Dec", InvalidValue { "allowed": allowed(m::FiscalYearStartMonth::VALUES) };
    industry_size_large_scale_passes / industry_size_unlisted_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["industry_size"],
        "large scale" => "huge", InvalidValue { "allowed": ["small scale", "medium scale", "large scale"] };
    org_address_zip_string_passes / org_address_zip_number_fails:
        *m::OrganizationCreateInput::SCHEMA, example("createOrganization"), ["address", "zip"],
        "94588" => 94588, InvalidType { "expected": "string" };
    update_org_fiscal_year_start_month_april_passes / update_org_fiscal_year_start_month_capitalised_fails:
        *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["fiscal_year_start_month"],
        "april" => "April", InvalidValue { "allowed": allowed(m::FiscalYearStartMonth::VALUES) };
    is_logo_uploaded_boolean_passes / is_logo_uploaded_string_fails:
        *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["is_logo_uploaded"],
        false => "yes", InvalidType { "expected": "boolean" };
    org_custom_field_index_number_passes / org_custom_field_index_string_fails:
        *m::OrganizationUpdateInput::SCHEMA, example("updateOrganization"), ["custom_fields", 0, "index"],
        2.5 => "2", InvalidType { "expected": "number" };
}

#[test]
fn industry_size_blank_counts_as_not_given() {
    assert_ok(
        "createOrganization",
        &set(example("createOrganization"), "/industry_size", json!(" ")),
    );
}

#[test]
fn organization_update_needs_no_field() {
    assert_ok("updateOrganization", &json!({}));
}

#[test]
fn organization_create_reports_every_issue() {
    let issues = run(
        "createOrganization",
        &json!({ "name": " ", "portal_name": "ab-c", "fiscal_year_start_month": "jan", "industry_size": "tiny" }),
    );
    expect_all(
        &issues,
        &[
            ("name", IssueCode::Required),
            ("currency_code", IssueCode::Required),
            ("time_zone", IssueCode::Required),
            ("portal_name", IssueCode::TooShort),
            ("portal_name", IssueCode::InvalidFormat),
            ("fiscal_year_start_month", IssueCode::InvalidValue),
            ("industry_size", IssueCode::InvalidValue),
        ],
    );
}
