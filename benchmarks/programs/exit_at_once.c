// A cluster program that ends as soon as it starts: what is left of a point's time is the runner's cost.
int main(void) {
    return 0;
}
