"""A group's roster has a version, moved on by each rename, merge or removal of a name

Revision ID: 0009_roster_version
Revises: 0008_request_ids
Create Date: 2026-12-06 23:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0009_roster_version'
down_revision = '0008_request_ids'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('roster_version', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('roster_version')
