"""What the client's tests share: sample frames, a fake host, and driving an app.

Kept with the tests so none of it ships in the package.
"""
