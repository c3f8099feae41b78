//! Fault injection: per-request failures drawn from a seeded generator.

/// Rates per request, each between 0 and 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rates {
    pub e500: f64,
    pub e503: f64,
    pub e429: f64,
    pub drop: f64,
    pub slow: f64,
}

impl Rates {
    /// Parses `500=0.05,503=0.05,429=0.05,drop=0.02,slow=0.05`.
    pub fn parse(spec: &str) -> Result<Rates, String> {
        let mut r = Rates::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, rate) = item
                .split_once('=')
                .ok_or_else(|| format!("--faults: {item:?} is not NAME=RATE"))?;
            let rate: f64 = rate
                .trim()
                .parse()
                .ok()
                .filter(|r: &f64| (0.0..=1.0).contains(r))
                .ok_or_else(|| {
                    format!("--faults: the rate of {name} must be a number from 0 to 1")
                })?;
            let slot = match name.trim() {
                "500" => &mut r.e500,
                "503" => &mut r.e503,
                "429" => &mut r.e429,
                "drop" => &mut r.drop,
                "slow" => &mut r.slow,
                other => {
                    return Err(format!(
                        "--faults: unknown fault {other:?} (500, 503, 429, drop, slow)"
                    ))
                }
            };
            *slot = rate;
        }
        if r.e500 + r.e503 + r.e429 + r.drop > 1.0 {
            return Err("--faults: 500, 503, 429 and drop together may not exceed 1".into());
        }
        Ok(r)
    }
}

/// What happens to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    None,
    /// Answer this status before anything is applied.
    Status(u16),
    /// Apply the request, then close the connection without an answer.
    Drop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub fault: Fault,
    pub slow: bool,
}

/// splitmix64: small, seedable, good enough for choosing faults.
pub struct Faults {
    pub rates: Rates,
    state: u64,
}

impl Faults {
    pub fn new(rates: Rates, seed: u64) -> Faults {
        Faults { rates, state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn draw(&mut self) -> Draw {
        let r = self.rates;
        let x = self.unit();
        let slow = self.unit() < r.slow;
        let mut edge = 0.0;
        let mut fault = Fault::None;
        for (rate, f) in [
            (r.e500, Fault::Status(500)),
            (r.e503, Fault::Status(503)),
            (r.e429, Fault::Status(429)),
            (r.drop, Fault::Drop),
        ] {
            edge += rate;
            if x < edge {
                fault = f;
                break;
            }
        }
        Draw { fault, slow }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_form() {
        let r = Rates::parse("500=0.05,503=0.05,429=0.05,drop=0.02,slow=0.05").unwrap();
        assert_eq!(
            r,
            Rates {
                e500: 0.05,
                e503: 0.05,
                e429: 0.05,
                drop: 0.02,
                slow: 0.05
            }
        );
        assert_eq!(Rates::parse("").unwrap(), Rates::default());
        for bad in ["500", "500=2", "404=0.1", "500=0.6,503=0.6", "drop=x"] {
            assert!(Rates::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeded_draws_repeat_and_follow_the_rates() {
        let rates = Rates::parse("500=0.1,503=0.1,429=0.1,drop=0.1,slow=0.5").unwrap();
        let run = |seed| {
            let mut f = Faults::new(rates, seed);
            (0..10_000).map(|_| f.draw()).collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        let share = |want: Fault| a.iter().filter(|d| d.fault == want).count() as f64 / 10_000.0;
        for f in [
            Fault::Status(500),
            Fault::Status(503),
            Fault::Status(429),
            Fault::Drop,
        ] {
            assert!((share(f) - 0.1).abs() < 0.02, "{f:?}: {}", share(f));
        }
        assert!((share(Fault::None) - 0.6).abs() < 0.02);
        let slow = a.iter().filter(|d| d.slow).count() as f64 / 10_000.0;
        assert!((slow - 0.5).abs() < 0.02);
        let mut none = Faults::new(Rates::default(), 1);
        assert!((0..1000).all(|_| none.draw()
            == Draw {
                fault: Fault::None,
                slow: false
            }));
    }
}
