// Asynchronous boundary so shared singletons are resolved before first use (standalone dev page).
void import('./app/bootstrap');
