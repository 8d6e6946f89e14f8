//! serde_json decoding twitter.json and canada.json into typed structs that
//! mirror Sources/CorpusModels (every field), and encoding those structs
//! back to compact JSON: the anchor Cartograph's typed decodes and encodes
//! are compared with. serde writes `null` for a `None` where Swift's
//! synthesized `encode(to:)` leaves the key out, so its output is a little
//! longer than Cartograph's. Median of interleaved runs, like
//! cartograph-bench. Run from the package root:
//!   cargo run --release --manifest-path Benchmarks/serde/Cargo.toml
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Instant;

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct TwitterResponse { statuses: Vec<Status>, search_metadata: SearchMetadata }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct SearchMetadata {
    completed_in: f64, max_id: i64, max_id_str: String, next_results: String, query: String,
    refresh_url: String, count: i64, since_id: i64, since_id_str: String,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct Status {
    metadata: StatusMetadata, created_at: String, id: i64, id_str: String, text: String, source: String, truncated: bool,
    in_reply_to_status_id: Option<i64>, in_reply_to_status_id_str: Option<String>, in_reply_to_user_id: Option<i64>,
    in_reply_to_user_id_str: Option<String>, in_reply_to_screen_name: Option<String>, user: TwitterUser,
    geo: Option<Value>, coordinates: Option<Value>, place: Option<Value>, contributors: Option<Value>,
    retweet_count: i64, favorite_count: i64, entities: StatusEntities, favorited: bool, retweeted: bool,
    possibly_sensitive: Option<bool>, lang: String, retweeted_status: Option<RetweetedStatus>,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct RetweetedStatus {
    metadata: StatusMetadata, created_at: String, id: i64, id_str: String, text: String, source: String, truncated: bool,
    in_reply_to_status_id: Option<i64>, in_reply_to_status_id_str: Option<String>, in_reply_to_user_id: Option<i64>,
    in_reply_to_user_id_str: Option<String>, in_reply_to_screen_name: Option<String>, user: TwitterUser,
    geo: Option<Value>, coordinates: Option<Value>, place: Option<Value>, contributors: Option<Value>,
    retweet_count: i64, favorite_count: i64, entities: StatusEntities, favorited: bool, retweeted: bool,
    possibly_sensitive: Option<bool>, lang: String,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct StatusMetadata { result_type: String, iso_language_code: String }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct TwitterUser {
    id: i64, id_str: String, name: String, screen_name: String, location: String, description: String,
    url: Option<String>, entities: UserEntities, protected: bool, followers_count: i64, friends_count: i64,
    listed_count: i64, created_at: String, favourites_count: i64, utc_offset: Option<i64>, time_zone: Option<String>,
    geo_enabled: bool, verified: bool, statuses_count: i64, lang: String, contributors_enabled: bool,
    is_translator: bool, is_translation_enabled: bool, profile_background_color: String,
    profile_background_image_url: String, profile_background_image_url_https: String, profile_background_tile: bool,
    profile_image_url: String, profile_image_url_https: String, profile_banner_url: Option<String>,
    profile_link_color: String, profile_sidebar_border_color: String, profile_sidebar_fill_color: String,
    profile_text_color: String, profile_use_background_image: bool, default_profile: bool,
    default_profile_image: bool, following: bool, follow_request_sent: bool, notifications: bool,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct UserEntities { description: URLList, url: Option<URLList> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct URLList { urls: Vec<TweetURL> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct StatusEntities {
    hashtags: Vec<Hashtag>, symbols: Vec<Value>, urls: Vec<TweetURL>, user_mentions: Vec<UserMention>, media: Option<Vec<Media>>,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct Hashtag { text: String, indices: Vec<i64> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct TweetURL { url: String, expanded_url: String, display_url: String, indices: Vec<i64> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct UserMention { screen_name: String, name: String, id: i64, id_str: String, indices: Vec<i64> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct Media {
    id: i64, id_str: String, indices: Vec<i64>, media_url: String, media_url_https: String, url: String,
    display_url: String, expanded_url: String, r#type: String, sizes: MediaSizes,
    source_status_id: Option<i64>, source_status_id_str: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct MediaSizes { medium: MediaSize, small: MediaSize, thumb: MediaSize, large: MediaSize }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct MediaSize { w: i64, h: i64, resize: String }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct FeatureCollection { r#type: String, features: Vec<Feature> }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct Feature { r#type: String, properties: std::collections::HashMap<String, String>, geometry: Geometry }

#[derive(Deserialize, Serialize)]
#[allow(dead_code)]
struct Geometry { r#type: String, coordinates: Vec<Vec<Vec<f64>>> }

/// Median milliseconds of `runs` rounds, each repeating `decode` for at least 150 ms.
fn measure(bytes: &[u8], runs: usize, decode: &dyn Fn(&[u8]) -> usize) -> f64 {
    let mut medians = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let mut count = 0usize;
        let mut sink = 0usize;
        while start.elapsed().as_secs_f64() < 0.15 {
            sink += decode(bytes);
            count += 1;
        }
        assert!(sink > 0);
        medians.push(start.elapsed().as_secs_f64() * 1000.0 / count as f64);
    }
    medians.sort_by(|a, b| a.partial_cmp(b).unwrap());
    medians[medians.len() / 2]
}

fn main() {
    let twitter = std::fs::read("Benchmarks/Data/twitter.json").expect("run from the package root");
    let canada = std::fs::read("Benchmarks/Data/canada.json").expect("run from the package root");
    let twitter_decode = |b: &[u8]| serde_json::from_slice::<TwitterResponse>(b).unwrap().statuses.len();
    let canada_decode = |b: &[u8]| serde_json::from_slice::<FeatureCollection>(b).unwrap().features.len();
    let twitter_model = serde_json::from_slice::<TwitterResponse>(&twitter).unwrap();
    let canada_model = serde_json::from_slice::<FeatureCollection>(&canada).unwrap();
    let twitter_encode = |_: &[u8]| serde_json::to_vec(&twitter_model).unwrap().len();
    let canada_encode = |_: &[u8]| serde_json::to_vec(&canada_model).unwrap().len();
    // `--repeat FILE CONTENDER N` runs one row N times untimed, for
    // instruction counts under callgrind (the difference of two N's is one
    // round's cost, steadier than time on a shared machine).
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 5 && args[1] == "--repeat" {
        let n: usize = args[4].parse().expect("a count");
        let run: &dyn Fn(&[u8]) -> usize = match (args[2].as_str(), args[3].as_str()) {
            ("twitter.json", "serde_json-typed") => &twitter_decode,
            ("twitter.json", "serde_json-typed-encode") => &twitter_encode,
            ("canada.json", "serde_json-typed") => &canada_decode,
            ("canada.json", "serde_json-typed-encode") => &canada_encode,
            _ => panic!("unknown file or contender"),
        };
        let bytes = if args[2] == "twitter.json" { &twitter } else { &canada };
        let sink: usize = (0..n).map(|_| run(bytes)).sum();
        assert!(sink > 0 || n == 0);
        return;
    }
    println!("| file | contender | median ms | MB/s |");
    println!("| --- | --- | ---: | ---: |");
    let rows: [(&str, &str, &Vec<u8>, &dyn Fn(&[u8]) -> usize); 4] = [
        ("twitter.json", "serde_json-typed", &twitter, &twitter_decode),
        ("twitter.json", "serde_json-typed-encode", &twitter, &twitter_encode),
        ("canada.json", "serde_json-typed", &canada, &canada_decode),
        ("canada.json", "serde_json-typed-encode", &canada, &canada_encode),
    ];
    for (name, contender, bytes, run) in rows {
        let ms = measure(bytes, 7, run);
        // MB/s of the input file, as cartograph-bench reports encodes.
        println!("| {} | {} | {:.3} | {:.1} |", name, contender, ms, bytes.len() as f64 / 1e6 / (ms / 1000.0));
    }
}
