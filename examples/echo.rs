//! The ceiling of `POST /v1/games/step`: a bare actix-web server that reads the same JSON body
//! (up to the same 256 KiB) into a `serde_json::Value` and writes it back. `scripts/load.sh`
//! measures the step against it in the same run, with the same client and workers, and reports
//! the step's share of the echo's requests per second.
//!
//! ```sh
//! cargo run --release --example echo -- 127.0.0.1:18081 2    # address, workers (one per core)
//! ```

use actix_web::{App, HttpResponse, HttpServer, web};

async fn echo(body: web::Json<serde_json::Value>) -> HttpResponse {
    HttpResponse::Ok().json(body.into_inner())
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:18081".into());
    let workers = match args.next() {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("workers: {n:?} is not a whole number above 0"))?,
        None => std::thread::available_parallelism().map_or(2, usize::from),
    };
    let limit = gin_rules::api::BODY_LIMIT;
    let server = HttpServer::new(move || {
        App::new()
            .app_data(web::JsonConfig::default().limit(limit))
            .route("/v1/games/step", web::post().to(echo))
    })
    .workers(workers)
    .bind(&addr)
    .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    actix_web::rt::System::new()
        .block_on(server.run())
        .map_err(|e| format!("the echo server stopped: {e}"))
}
