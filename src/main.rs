//! The `diemon` binary: parse, run, exit with the code `cli::run` returns.

fn main() {
    std::process::exit(diemon::cli::run());
}
